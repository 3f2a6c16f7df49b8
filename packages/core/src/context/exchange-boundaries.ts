import type { Message } from '@tandem/ai';

/**
 * Indices where a conversation may be cut so that no tool call is separated from its result
 * (requirements C1). Index i is a boundary when every tool call made before i has its result before i,
 * and messages[i] is not itself a tool result (which would be orphaned from its call).
 * 0 is always a boundary; `messages.length` is one when no call is left open at the end.
 * One pass, O(n).
 */
export function exchangeBoundaries(messages: readonly Message[]): number[] {
  const open = new Set<string>();
  const boundaries: number[] = [];
  for (let i = 0; i <= messages.length; i++) {
    const m = messages[i];
    if (open.size === 0 && (m === undefined || m.role !== 'tool')) boundaries.push(i);
    if (!m) break;
    if (m.role === 'assistant') for (const call of m.toolCalls) open.add(call.id);
    else if (m.role === 'tool') open.delete(m.callId);
  }
  return boundaries;
}

/**
 * True when `view` keeps every tool call with its result: each result follows its call, and
 * no call made before a later user message is left without a result. Used by tests and as a
 * guard before a compacted view is handed to a provider.
 */
export function pairsIntact(view: readonly Message[]): boolean {
  const called = new Set<string>();
  const answered = new Set<string>();
  for (const m of view) {
    if (m.role === 'assistant') for (const c of m.toolCalls) called.add(c.id);
    if (m.role === 'tool') {
      if (!called.has(m.callId)) return false;
      answered.add(m.callId);
    }
  }
  // A call may be unanswered only at the very end (a turn in progress).
  let trailingOpen = true;
  for (let i = view.length - 1; i >= 0; i--) {
    const m = view[i] as Message;
    if (m.role === 'assistant') {
      for (const c of m.toolCalls) if (!answered.has(c.id) && !trailingOpen) return false;
      trailingOpen = false;
    }
    if (m.role === 'user') trailingOpen = false;
  }
  return true;
}
