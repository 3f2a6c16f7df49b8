import type { GateCall, GateVerdict, ToolGate } from '@tandem/core';

/**
 * Runs gate steps in order (e.g. permissions, then the rate limiter, as ARCHITECTURE's
 * pipeline says); the first refusal ends the check and later steps never run.
 */
export function composeGates(...gates: ToolGate[]): ToolGate {
  return {
    async check(call: GateCall, signal: AbortSignal): Promise<GateVerdict> {
      for (const gate of gates) {
        const verdict = await gate.check(call, signal);
        if (!verdict.allow) return verdict;
      }
      return { allow: true };
    },
  };
}
