import type { SessionEvent } from '@tandem/shared';

/**
 * The text streamed so far in the current model reply, as clients have seen it: the session
 * feeds it events as they become visible (broadcast), so a client attaching mid-reply is given
 * exactly the deltas it missed (as one synthetic `text_delta`) and none it will still receive.
 * Deltas are not persisted. It resets when the reply's text is final (`assistant_text`), when
 * tools start, and when the turn ends.
 */
export class PartialText {
  private turnId: string | undefined;
  private chunks: string[] = [];

  observe(event: SessionEvent): void {
    switch (event.type) {
      case 'text_delta':
        if (event.turnId !== this.turnId) {
          this.turnId = event.turnId;
          this.chunks = [];
        }
        this.chunks.push(event.delta);
        break;
      case 'assistant_text':
      case 'tool_call':
      case 'turn_done':
      case 'turn_cancelled':
      case 'turn_interrupted':
      case 'turn_started':
        this.clear();
        break;
      default:
        break;
    }
  }

  current(): { turnId: string; text: string } | undefined {
    if (this.turnId === undefined || this.chunks.length === 0) return undefined;
    const text = this.chunks.join('');
    this.chunks = [text];
    return { turnId: this.turnId, text };
  }

  clear(): void {
    this.turnId = undefined;
    this.chunks = [];
  }
}
