import type { Danger } from '@tandem/shared';

/** A tool call about to run, as the host's policy sees it. */
export interface GateCall {
  turnId: string;
  callId: string;
  tool: string;
  args: unknown;
  danger: Danger;
  readOnly: boolean;
}

export type GateVerdict =
  | { allow: true }
  /** `stopTurn` ends the turn after this result (e.g. a permission request timed out). */
  | { allow: false; reason: string; stopTurn?: 'permission_timeout' | 'loop_stopped' };

/**
 * The host's checks between schema validation and execution: blacklist, sandbox grants,
 * permissions, rate limits. The engine awaits it for every call; the default allows all.
 */
export interface ToolGate {
  check(call: GateCall, signal: AbortSignal): Promise<GateVerdict>;
}

export const allowAllGate: ToolGate = { check: async () => ({ allow: true }) };
