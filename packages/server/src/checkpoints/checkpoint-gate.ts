import type { GateCall, GateVerdict, ToolGate } from '@tandem/core';
import type { SessionCheckpoints } from './session-checkpoints.js';

/**
 * The session's gate with the checkpoint after it: once a call is allowed, what it may change is
 * kept before it runs. Adds no decision of its own (the one gate stays the one gate).
 */
export function checkpointGate(inner: ToolGate | undefined, checkpoints: SessionCheckpoints): ToolGate {
  return {
    async check(call: GateCall, signal: AbortSignal): Promise<GateVerdict> {
      const verdict = inner ? await inner.check(call, signal) : { allow: true as const };
      if (verdict.allow) await checkpoints.beforeCall(call);
      return verdict;
    },
    ...(inner?.screen ? { screen: (call: GateCall) => inner.screen!(call) } : {}),
  };
}
