import { pushItem, replaceAt } from './items.js';
import type { AgentTag, AssistantItem, TranscriptItem, ViewState } from './types.js';

/**
 * Assistant text as segments, one per speaker: the commander and each worker (agent + taskId)
 * stream into their own segment, so a worker's text never merges into the commander's bubble
 * however their events interleave. A speaker's tool call closes its open segment, so a turn that
 * writes, dispatches, reads the results and writes again shows separate segments in order.
 */

/** Who an event speaks for: absent `agent` is the commander (or a session without agents). */
function sameSpeaker(item: AgentTag, tag: AgentTag): boolean {
  return (item.agent ?? 'commander') === (tag.agent ?? 'commander') && (item.taskId ?? '') === (tag.taskId ?? '');
}

function isOpen(item: TranscriptItem | undefined, turnId: string, tag: AgentTag): item is AssistantItem {
  return item !== undefined && item.kind === 'assistant' && !item.final && item.turnId === turnId && sameSpeaker(item, tag);
}

/** Index of the speaker's open segment in this turn, or -1. */
export function openSegment(state: ViewState, turnId: string, tag: AgentTag): number {
  for (let i = state.items.length - 1; i >= 0; i--) if (isOpen(state.items[i], turnId, tag)) return i;
  return -1;
}

export function appendDelta(state: ViewState, turnId: string, delta: string, tag: AgentTag): ViewState {
  const index = openSegment(state, turnId, tag);
  if (index < 0) return pushItem(state, { kind: 'assistant', ...tag, turnId, text: delta, final: false });
  const item = state.items[index] as AssistantItem;
  return replaceAt(state, index, { ...item, text: item.text + delta });
}

export function finaliseText(state: ViewState, turnId: string, text: string, tag: AgentTag): ViewState {
  const index = openSegment(state, turnId, tag);
  if (index >= 0) return replaceAt(state, index, { kind: 'assistant', ...tag, turnId, text, final: true });
  if (text.trim().length === 0) return state;
  return pushItem(state, { kind: 'assistant', ...tag, turnId, text, final: true });
}

/** Closes the speaker's open segment (its tool call comes next). */
export function closeSegment(state: ViewState, tag: AgentTag): ViewState {
  for (let i = state.items.length - 1; i >= 0; i--) {
    const item = state.items[i];
    if (item?.kind === 'assistant' && !item.final && sameSpeaker(item, tag)) return replaceAt(state, i, { ...item, final: true });
  }
  return state;
}

/** Streamed text whose assistant_text never came (cancelled, error) stays as it was, final: every speaker's. */
export function closeAllSegments(state: ViewState): ViewState {
  if (!state.items.some((item) => item.kind === 'assistant' && !item.final)) return state;
  return { ...state, items: state.items.map((item) => (item.kind === 'assistant' && !item.final ? { ...item, final: true } : item)) };
}
