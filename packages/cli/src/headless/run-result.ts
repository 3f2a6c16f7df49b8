import type { Usage } from '@tandem/shared';
import type { PermissionDenial, TurnEnd, TurnOutcome } from './turn-tracker.js';

/**
 * The `json` output of a headless run (and `tandem_run`'s structured content): the contract's
 * fields first (`type` … `durationMs`), then what else a script may want to know.
 */
export interface RunResult {
  type: 'result';
  sessionId: string;
  turnId: string | null;
  result: string;
  isError: boolean;
  iterations: number;
  usage: Usage;
  durationMs: number;
  /** How the turn ended: `answered`, `error`, `max_iterations`, `permission_timeout`, `loop_stopped`, `cancelled`, `interrupted`, `disconnected`. */
  stopReason: TurnEnd;
  /** The exit status `tandem run` ends with (0, 1, 3 or 130). */
  exitStatus: number;
  error?: { code: string; message: string };
  /** Tool calls a permission decision refused during the run. */
  permissionDenials: PermissionDenial[];
}

/** Exit statuses of `tandem run` (ARCHITECTURE, Entrances). */
export const EXIT = { ok: 0, failed: 1, usage: 2, denied: 3, interrupted: 130 } as const;

/** 130 cancelled; 3 a permission refused or timed out; 0 answered; 1 anything else (an error or a limit). */
export function exitStatusOf(outcome: TurnOutcome): number {
  if (outcome.end === 'cancelled') return EXIT.interrupted;
  if (outcome.end === 'permission_timeout' || outcome.denials.length > 0) return EXIT.denied;
  return outcome.end === 'answered' ? EXIT.ok : EXIT.failed;
}

export function runResult(sessionId: string, outcome: TurnOutcome, durationMs: number): RunResult {
  const exitStatus = exitStatusOf(outcome);
  return {
    type: 'result',
    sessionId,
    turnId: outcome.turnId ?? null,
    result: outcome.answer,
    isError: exitStatus !== EXIT.ok,
    iterations: outcome.iterations,
    usage: outcome.usage,
    durationMs: Math.round(durationMs),
    stopReason: outcome.end,
    exitStatus,
    ...(outcome.error ? { error: outcome.error } : {}),
    permissionDenials: outcome.denials,
  };
}

/** One sentence for stderr saying why a run did not end answered, or undefined when it did. */
export function failureSentence(result: RunResult): string | undefined {
  const sessionHint = `\`tandem attach ${result.sessionId.slice(0, 8)}\` shows the session`;
  switch (result.stopReason) {
    case 'answered': {
      const denied = result.permissionDenials[0];
      if (!denied) return undefined;
      const by = denied.reason === 'rule' ? 'a stored rule' : denied.reason === 'timeout' ? 'nobody answering in time' : denied.by;
      const more = result.permissionDenials.length > 1 ? ` (and ${result.permissionDenials.length - 1} more)` : '';
      return `the turn ended, but ${denied.tool} was refused by ${by}${more}; exit status 3`;
    }
    case 'cancelled':
      return `the turn was cancelled; ${sessionHint}`;
    case 'permission_timeout':
      return `${result.error?.message ?? 'a permission request was not answered in time'}; the turn stopped. Approve from a terminal (${sessionHint}) or run with --approval-mode auto-edit or full-auto`;
    case 'max_iterations':
      return `${result.error?.message ?? 'the turn reached its iteration limit'}; raise --max-iterations or continue with --continue`;
    case 'interrupted':
      return `the server stopped during the turn; ${sessionHint} once it is back`;
    case 'disconnected':
      return `${result.error?.message ?? 'lost the connection to the server'}; the turn's end is unknown`;
    default:
      return `${result.error ? `${result.error.code}: ${result.error.message}` : `the turn ended: ${result.stopReason}`}`;
  }
}
