import type { SessionEvent } from '@tandem/shared';
import { formatDuration } from './format-duration.js';
import type { NoticeLevel } from './types.js';

/**
 * Events that only add a line to the transcript, and the line they add. Events that change
 * more of the view (turns, tools, permissions, presence) are handled by the reducer itself.
 */
export function noticeFor(event: SessionEvent): { level: NoticeLevel; text: string } | null {
  switch (event.type) {
    case 'agent_error':
      return { level: 'error', text: `${event.code}: ${event.message}` };
    case 'rate_limit_wait':
      return { level: 'info', text: `rate limit: ${event.tool} waits ${formatDuration(event.waitMs)} (${event.reason})` };
    case 'loop_warning':
      return {
        level: 'warn',
        text: `loop ${event.stopped ? 'stopped' : 'warning'}: ${event.tool} called ${event.count} times in a row with the same arguments`,
      };
    case 'job_started':
      return { level: 'info', text: `background job ${event.jobId} started: ${event.command} (log: ${event.logPath})` };
    case 'job_exited':
      return {
        level: 'info',
        text: `background job ${event.jobId} exited (code ${event.exitCode ?? 'none'})${event.stoppedBy ? `, stopped by ${event.stoppedBy}` : ''}`,
      };
    case 'sandbox_granted':
      return { level: 'info', text: `sandbox: ${event.by} granted ${event.write ? 'write to the protected location' : 'access to'} ${event.path}` };
    case 'checkpoint':
      return {
        level: 'info',
        text: `checkpoint: the ${event.cancelled ? 'cancelled ' : ''}turn changed ${event.files.length} file${event.files.length === 1 ? '' : 's'} (${event.files
          .slice(0, 5)
          .map((f) => f.path)
          .join(', ')}${event.files.length > 5 ? ', …' : ''}) · /diff shows them, /undo takes them back`,
      };
    case 'undo': {
      const conflicts = event.conflicts?.length ? `; left alone (changed since): ${event.conflicts.map((c) => c.path).join(', ')}` : '';
      return {
        level: 'warn',
        text: `undo by ${event.by}: the last ${event.turns === 1 ? 'turn' : `${event.turns} turns`} taken back (conversation and ${event.files.length} file${event.files.length === 1 ? '' : 's'})${conflicts}`,
      };
    }
    case 'model_retry':
      return {
        level: 'info',
        text: `retrying ${event.model} (attempt ${event.attempt}) in ${formatDuration(event.delayMs)}: ${event.reason}`,
      };
    case 'model_warning':
      return { level: 'warn', text: `${event.model}: ${event.message}` };
    case 'compaction':
      return {
        level: 'info',
        text: `context compacted: ${event.foldedMessages} messages summarised, ${event.tokensBefore} → ${event.tokensAfter} tokens`,
      };
    case 'compaction_skipped':
      return { level: 'warn', text: `compaction skipped: ${event.reason}` };
    case 'memory_consolidated':
      return { level: 'info', text: `memory saved (${event.model}): ${event.historyEntry}` };
    case 'memory_consolidation_failed':
      return { level: 'error', text: `memory archival failed, session not cleared: ${event.reason}` };
    case 'memory_quarantined':
      return { level: 'warn', text: `memory write quarantined (${event.kind}): ${event.reason}` };
    case 'extension_notice':
      return { level: 'warn', text: `${event.kind.replace('_', ' ')}: ${event.name}: ${event.message}` };
    case 'evolution': {
      const changed = event.changes.map((c) => `${c.kind.replace('_', ' ')} ${c.name}`).join(', ');
      const what = event.status === 'reverted' ? 'reflection reverted' : event.status === 'failed' ? 'reflection failed' : 'reflection';
      return {
        level: event.status === 'failed' ? 'warn' : 'info',
        text: `${event.agent} ${what} ${event.id}: ${event.reason ?? event.summary}${changed ? ` (${changed})` : ''}`,
      };
    }
    default:
      return null;
  }
}
