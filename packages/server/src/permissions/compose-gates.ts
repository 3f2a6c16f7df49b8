import type { CallDecision, GateCall, GateScreen, GateVerdict, ToolGate } from '@tandem/core';

/**
 * Runs gate steps in order (e.g. permissions, then the rate limiter, as ARCHITECTURE's
 * pipeline says); the first refusal ends the check and later steps never run. The verdict
 * carries the decision of the first step that made one. `screen` asks
 * each step that has one, in order: the first refusal wins; the danger and reason come from
 * the first step that screens.
 */
export function composeGates(...gates: ToolGate[]): ToolGate {
  const screening = gates.filter((g) => g.screen);
  return {
    async check(call: GateCall, signal: AbortSignal): Promise<GateVerdict> {
      // The first step that decides (the permission step) names the decision; later steps (the
      // rate limiter) only let it through or stop it, and a stop keeps that decision.
      let decided: CallDecision | undefined;
      for (const gate of gates) {
        const verdict = await gate.check(call, signal);
        if (!decided && verdict.decision !== undefined) decided = { decision: verdict.decision, decidedBy: verdict.decidedBy ?? 'system' };
        if (!verdict.allow) return verdict.decision === undefined && decided ? { ...verdict, ...decided } : verdict;
      }
      return { allow: true, ...decided };
    },
    ...(screening.length > 0
      ? {
          async screen(call: GateCall): Promise<GateScreen> {
            let first: GateScreen | undefined;
            for (const gate of screening) {
              const screen = await gate.screen!(call);
              if (screen.refusal) return screen;
              first ??= screen;
            }
            return first ?? { danger: call.danger };
          },
        }
      : {}),
  };
}
