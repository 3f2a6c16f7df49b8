import type { EventBody } from '@tandem/shared';
import type { ConsolidationResult } from './consolidate.js';

export const ARCHIVAL_FAILED = 'memory archival failed, session not cleared';

/**
 * What the host does with a consolidation result on `session:new` (requirements H4): the event to
 * persist, the ack, and whether the conversation may be cleared. Clear only when `clear` is true.
 */
export function consolidationOutcome(result: ConsolidationResult): {
  event: Extract<EventBody, { type: 'memory_consolidated' | 'memory_consolidation_failed' }> | undefined;
  ack: { consolidated: boolean; reason?: string };
  clear: boolean;
} {
  if (result.ok) {
    if (result.skipped) return { event: undefined, ack: { consolidated: true, reason: result.skipped }, clear: true };
    return { event: { type: 'memory_consolidated', model: result.model, historyEntry: result.historyEntry }, ack: { consolidated: true }, clear: true };
  }
  const reason = `${ARCHIVAL_FAILED}: ${result.reason}`;
  return { event: { type: 'memory_consolidation_failed', reason }, ack: { consolidated: false, reason }, clear: false };
}
