import type { Message } from '@tandem/ai';
import type { ToolSpec } from '@tandem/ai';
import type { TokenCalibration } from './calibration.js';
import { estimateMessageTokens, estimateTextTokens, estimateToolTokens } from './estimate-tokens.js';

export interface ContextUsage {
  /** Estimated tokens of the next request: system + tools + messages + output reserve. */
  usedTokens: number;
  windowTokens: number;
  /** usedTokens / windowTokens × 100, one decimal. */
  percent: number;
  breakdown: { system: number; tools: number; messages: number; outputReserve: number };
}

export interface AccountantOptions {
  /** The model's context window from the catalog (requirements C1). */
  windowTokens: number;
  /** Tokens kept free for the reply (the request's max output tokens). */
  outputReserve: number;
  /** Model id whose calibration applies (`provider/model`). */
  model?: string;
  calibration?: TokenCalibration;
}

/**
 * Incremental context accounting (requirements C1). Each message is estimated once, when it is first
 * seen; a running total makes `usage()` O(1) and appending O(size of the new message), never
 * O(conversation). `sync(conversation)` lets the host hand over the live array the loop pushes
 * to: it counts only what was appended since the last call, and re-counts everything only if
 * the array was replaced (compaction, rebuild) — a one-off O(n).
 */
export class ContextAccountant {
  private readonly refs: Message[] = [];
  private readonly perMessage: number[] = [];
  private messageTotal = 0;
  private systemTokens = 0;
  private toolTokens = 0;
  private windowTokens: number;
  private outputReserve: number;
  private model: string | undefined;
  private readonly calibration: TokenCalibration | undefined;

  constructor(options: AccountantOptions) {
    this.windowTokens = positive(options.windowTokens, 'windowTokens');
    this.outputReserve = Math.max(0, options.outputReserve);
    this.model = options.model;
    this.calibration = options.calibration;
  }

  setModel(model: string, windowTokens: number, outputReserve: number): void {
    this.model = model;
    this.windowTokens = positive(windowTokens, 'windowTokens');
    this.outputReserve = Math.max(0, outputReserve);
  }

  setSystem(system: string): void {
    this.systemTokens = estimateTextTokens(system);
  }

  setTools(tools: readonly ToolSpec[]): void {
    this.toolTokens = estimateToolTokens(tools);
  }

  append(message: Message): void {
    const n = estimateMessageTokens(message);
    this.refs.push(message);
    this.perMessage.push(n);
    this.messageTotal += n;
  }

  /** Drops messages past `length` (a cancelled turn truncates the conversation back). */
  truncate(length: number): void {
    while (this.perMessage.length > Math.max(0, length)) {
      this.messageTotal -= this.perMessage.pop() ?? 0;
      this.refs.pop();
    }
  }

  /** Replaces the counted conversation (after compaction or a rebuild). O(n), once. */
  reset(messages: readonly Message[]): void {
    this.truncate(0);
    for (const m of messages) this.append(m);
  }

  /**
   * Brings the count in line with `conversation`, estimating only messages not counted before.
   * The usual cases (appended, truncated) cost O(new messages). When the array was rebuilt
   * (a host that hands the loop a fresh copy each turn), the common prefix is found by object
   * identity — pointer compares, no re-estimation — and only the rest is estimated again.
   */
  sync(conversation: readonly Message[]): void {
    const counted = this.refs.length;
    const n = conversation.length;
    const samePrefix = (len: number): boolean => len === 0 || (conversation[0] === this.refs[0] && conversation[len - 1] === this.refs[len - 1]);
    if (n >= counted && samePrefix(counted)) {
      for (let i = counted; i < n; i++) this.append(conversation[i] as Message);
      return;
    }
    if (n < counted && samePrefix(n)) {
      this.truncate(n);
      return;
    }
    let common = 0;
    const limit = Math.min(n, counted);
    while (common < limit && conversation[common] === this.refs[common]) common++;
    this.truncate(common);
    for (let i = common; i < n; i++) this.append(conversation[i] as Message);
  }

  /** Per-message raw estimates, index-aligned with the counted conversation. */
  messageEstimates(): readonly number[] {
    return this.perMessage;
  }

  /** Raw (uncalibrated) estimate of the request's input: system + tools + messages. */
  rawInputEstimate(): number {
    return this.systemTokens + this.toolTokens + this.messageTotal;
  }

  /**
   * Feeds the provider's reported input tokens into the model's calibration. Call it when the
   * `usage` stream event arrives, before the reply is appended, or pass the estimate taken
   * when the request was built.
   */
  observeUsage(inputTokens: number, rawEstimateAtRequest = this.rawInputEstimate()): void {
    if (this.calibration && this.model) this.calibration.observe(this.model, rawEstimateAtRequest, inputTokens);
  }

  /** O(1) check to run before every request; only when true is planCompaction (O(n)) worth calling. */
  shouldCompact(threshold = 0.8): boolean {
    return this.usage().usedTokens >= threshold * this.windowTokens;
  }

  /**
   * What planCompaction needs, from the counts kept here (no re-estimation): pass it as the
   * budget together with keepRecentTokens / keepRecentMessages.
   */
  budget(): { windowTokens: number; toolTokens: number; outputReserve: number; systemTokens: number; estimates: readonly number[]; ratio: number } {
    const ratio = this.ratio();
    return {
      windowTokens: this.windowTokens,
      toolTokens: Math.ceil(this.toolTokens * ratio),
      outputReserve: this.outputReserve,
      systemTokens: this.systemTokens,
      estimates: this.perMessage,
      ratio,
    };
  }

  /** The calibration multiplier in force for the current model (1 without calibration). */
  ratio(): number {
    return this.calibration && this.model ? this.calibration.ratio(this.model) : 1;
  }

  usage(): ContextUsage {
    const ratio = this.ratio();
    const system = Math.ceil(this.systemTokens * ratio);
    const tools = Math.ceil(this.toolTokens * ratio);
    const messages = Math.ceil(this.messageTotal * ratio);
    const usedTokens = system + tools + messages + this.outputReserve;
    return {
      usedTokens,
      windowTokens: this.windowTokens,
      percent: Math.round((usedTokens / this.windowTokens) * 1000) / 10,
      breakdown: { system, tools, messages, outputReserve: this.outputReserve },
    };
  }
}

function positive(n: number, name: string): number {
  if (!Number.isFinite(n) || n <= 0) throw new RangeError(`${name} must be a positive number of tokens, got ${n}`);
  return n;
}
