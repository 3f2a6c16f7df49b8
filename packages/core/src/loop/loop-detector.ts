import type { ToolCall } from '@tandem/ai';
import { stableJson } from '../base/stable-json.js';

/** requirements A10: the 3rd identical call in a row gets a nudge, the 5th is not run and ends the turn. */
export const LOOP_WARN_AT = 3;
export const LOOP_STOP_AT = 5;

export type LoopVerdict =
  | { action: 'run'; count: number }
  | { action: 'warn'; count: number; nudge: string }
  | { action: 'stop'; count: number; reason: string };

/** Counts back-to-back identical calls (same tool, same arguments) across a turn's replies. */
export class LoopDetector {
  private lastKey: string | undefined;
  private count = 0;

  observe(call: ToolCall): LoopVerdict {
    const key = `${call.name}\u0000${call.args === undefined ? `raw:${call.rawArgs}` : stableJson(call.args)}`;
    this.count = key === this.lastKey ? this.count + 1 : 1;
    this.lastKey = key;
    if (this.count >= LOOP_STOP_AT) {
      return {
        action: 'stop',
        count: this.count,
        reason: `Not run: ${call.name} was called ${this.count} times in a row with the same arguments, so the turn was stopped.`,
      };
    }
    if (this.count >= LOOP_WARN_AT) {
      return {
        action: 'warn',
        count: this.count,
        nudge:
          `Note: you have made this exact ${call.name} call ${this.count} times in a row and got the same kind of result. ` +
          `Repeating it will not change the outcome; try a different approach, or stop and tell the user what is blocking you.`,
      };
    }
    return { action: 'run', count: this.count };
  }
}
