import type { SessionEvent } from '@tandem/shared';

/** Outputs kept (the newest calls'), and the most characters kept of one. */
const MAX_OUTPUTS = 300;
const MAX_CHARS = 256 * 1024;

/**
 * Each tool call's whole output, as its tool_result carried it, for the page to unfold under the
 * few lines a card shows (the shared view state keeps only those). Bounded: the newest calls.
 */
export class FullOutputs {
  private readonly outputs = new Map<string, string>();

  observe(event: SessionEvent): void {
    if (event.type !== 'tool_result') return;
    this.outputs.delete(event.callId);
    this.outputs.set(event.callId, event.output.length > MAX_CHARS ? `${event.output.slice(0, MAX_CHARS)}\n…` : event.output);
    if (this.outputs.size > MAX_OUTPUTS) this.outputs.delete(this.outputs.keys().next().value as string);
  }

  get(callId: string): string | undefined {
    return this.outputs.get(callId);
  }
}

/** The page's one store (a page shows one session at a time; call ids are unique). */
export const fullOutputs = new FullOutputs();
