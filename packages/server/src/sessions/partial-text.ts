import { TURN_END_TYPES } from '@tandem/shared';
import type { SessionEvent } from '@tandem/shared';

interface Partial {
  turnId: string;
  agent: string | undefined;
  taskId: string | undefined;
  chunks: string[];
}

/**
 * The text streamed so far in each current model reply, as clients have seen it: the session
 * feeds it events as they become visible (broadcast), so a client attaching mid-reply is given
 * exactly the deltas it missed (one synthetic `text_delta` per speaker, tagged with its agent and
 * task) and none it will still receive. Deltas are not persisted. Several agents may stream at
 * once, so there is one partial per speaker (agent and task); it resets when that speaker's text
 * is final (`assistant_text`), when its tools start, and when its turn ends.
 */
export class PartialText {
  private readonly partials = new Map<string, Partial>();

  observe(event: SessionEvent): void {
    const key = speaker(event);
    switch (event.type) {
      case 'text_delta': {
        let partial = this.partials.get(key);
        if (partial?.turnId !== event.turnId) {
          partial = { turnId: event.turnId, agent: event.agent, taskId: event.taskId, chunks: [] };
          this.partials.set(key, partial);
        }
        partial.chunks.push(event.delta);
        break;
      }
      case 'assistant_text':
      case 'tool_call':
      case 'turn_done':
      case 'turn_cancelled':
      case 'turn_interrupted':
      case 'turn_started':
        this.partials.delete(key);
        // The session's turn ended: whatever its workers were saying is over too.
        if (event.taskId === undefined && TURN_END_TYPES.has(event.type)) this.partials.clear();
        break;
      default:
        break;
    }
  }

  /** Each speaker's text so far, oldest speaker first. */
  current(): Array<{ turnId: string; text: string; agent?: string; taskId?: string }> {
    const out: Array<{ turnId: string; text: string; agent?: string; taskId?: string }> = [];
    for (const partial of this.partials.values()) {
      if (partial.chunks.length === 0) continue;
      const text = partial.chunks.join('');
      partial.chunks = [text];
      out.push({ turnId: partial.turnId, text, ...(partial.agent ? { agent: partial.agent } : {}), ...(partial.taskId ? { taskId: partial.taskId } : {}) });
    }
    return out;
  }

  clear(): void {
    this.partials.clear();
  }
}

function speaker(event: SessionEvent): string {
  return `${event.agent ?? ''}\u0000${event.taskId ?? ''}`;
}
