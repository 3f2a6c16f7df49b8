import type { Message } from '@tandem/ai';
import type { ModelClient, ToolSpec } from '@tandem/ai';
import type { Clock } from '@tandem/ai';
import type { EngineEvent } from '../base/engine-event.js';
import { sameItems } from '../base/same-items.js';
import type { ContextRequest, TurnContext } from './turn-context.js';
import { TokenCalibration } from './calibration.js';
import { ContextAccountant, type ContextUsage } from './context-accountant.js';
import { contextUsageEvent, maybeCompact, type MaybeCompactOptions } from './maybe-compact.js';

/** What the context manager needs of the session's model (a catalog entry fits). */
export interface ContextModel {
  /** `provider/model` */
  id: string;
  contextWindow: number;
  maxOutput: number;
}

export interface SessionContextOptions {
  model: ContextModel;
  /** The cheap model that writes compaction summaries (e.g. `resolveMemoryClient(...)`). */
  compactionClient: ModelClient;
  /** Shared between sessions so what one learns about a model helps the others (requirements C2). */
  calibration?: TokenCalibration;
  clock?: Clock;
  /** Fraction of the window at which compaction starts (default 0.8, requirements C1). */
  threshold?: number;
  /** Tokens kept free for the reply (default: the model's max output, at most 16,384 and a quarter of the window). */
  outputReserve?: number;
  keepRecentTokens?: number;
  keepRecentMessages?: number;
  /** Timeout of one summary call (default 60 s). */
  summaryTimeoutMs?: number;
}

export interface CompactNowOptions {
  /** The session's conversation as the host holds it; compacted in place on success. */
  conversation: Message[];
  signal: AbortSignal;
  /** Default true: `session:compact` compacts whatever the usage. */
  force?: boolean;
  /** The system prompt and tools of the next request, if the host knows them (better numbers). */
  system?: string;
  tools?: readonly ToolSpec[];
}

/** The answer to `session:compact`: the ack fields plus the events to persist, in order. */
export interface CompactNowResult {
  compacted: boolean;
  reason?: string;
  events: EngineEvent[];
}

/**
 * One session's context manager (requirements C1, C2): counts the next request against the model's
 * window, compacts at 80 % with the cheap model, forces one compaction when the provider says
 * the request overflowed, and learns the token ratio from usage reports. The host creates one
 * per session and passes it as `TurnEnvironment.context`; `compactNow` serves `session:compact`.
 */
export class SessionContext implements TurnContext {
  readonly accountant: ContextAccountant;
  readonly calibration: TokenCalibration;
  private model: ContextModel;
  private system: string | undefined;
  private tools: readonly ToolSpec[] | undefined;
  private estimateAtRequest = 0;
  private compacting = false;

  constructor(private readonly options: SessionContextOptions) {
    this.model = options.model;
    this.calibration = options.calibration ?? new TokenCalibration();
    this.accountant = new ContextAccountant({
      windowTokens: options.model.contextWindow,
      outputReserve: this.reserveFor(options.model),
      model: options.model.id,
      calibration: this.calibration,
    });
  }

  /** The session switched models: new window, reserve and calibration key. */
  setModel(model: ContextModel): void {
    this.model = model;
    this.accountant.setModel(model.id, model.contextWindow, this.reserveFor(model));
  }

  get modelId(): string {
    return this.model.id;
  }

  /** The numbers of the last counted request (or of the conversation last synced). */
  usage(): ContextUsage {
    return this.accountant.usage();
  }

  async beforeRequest(request: ContextRequest): Promise<EngineEvent[]> {
    this.describe(request.system, request.tools);
    const outcome = await this.compact(request.conversation, request.signal, false);
    const events: EngineEvent[] = outcome.action === 'none' ? [] : [outcome.event];
    events.push(this.measured());
    return events;
  }

  async onOverflow(request: ContextRequest): Promise<{ compacted: boolean; events: EngineEvent[] }> {
    this.describe(request.system, request.tools);
    const outcome = await this.compact(request.conversation, request.signal, true);
    if (outcome.action === 'none') return { compacted: false, events: [] };
    if (outcome.action !== 'compacted') return { compacted: false, events: [outcome.event] };
    return { compacted: true, events: [outcome.event, this.measured()] };
  }

  afterReply(report: { inputTokens: number; model: string }): void {
    // A reply served by a fallback model says nothing about this model's tokenizer.
    if (report.model !== this.model.id || !(report.inputTokens > 0)) return;
    this.accountant.observeUsage(report.inputTokens, this.estimateAtRequest);
  }

  /** `session:compact` (usable while idle): compacts `conversation` in place if anything can be folded. */
  async compactNow(options: CompactNowOptions): Promise<CompactNowResult> {
    if (this.compacting) return { compacted: false, reason: 'a compaction of this session is already running', events: [] };
    if (options.conversation.length === 0) return { compacted: false, reason: 'there is nothing to compact: the conversation is empty', events: [] };
    if (options.system !== undefined || options.tools !== undefined) this.describe(options.system ?? this.system ?? '', options.tools ?? this.tools ?? []);
    const outcome = await this.compact(options.conversation, options.signal, options.force ?? true);
    if (outcome.action === 'compacted') return { compacted: true, events: [outcome.event, this.measured()] };
    if (outcome.action === 'none') {
      const usage = this.measured();
      const threshold = Math.round((this.options.threshold ?? 0.8) * 100);
      return {
        compacted: false,
        reason: `not needed: the conversation uses ${usage.percent}% of the window; compaction starts at ${threshold}%`,
        events: [usage],
      };
    }
    return { compacted: false, reason: outcome.event.reason, events: [outcome.event] };
  }

  private async compact(conversation: Message[], signal: AbortSignal, force: boolean) {
    const options: MaybeCompactOptions = {
      accountant: this.accountant,
      client: this.options.compactionClient,
      signal,
      ...(force ? { force: true } : {}),
      ...(this.options.clock ? { clock: this.options.clock } : {}),
      ...(this.options.threshold !== undefined ? { threshold: this.options.threshold } : {}),
      ...(this.options.keepRecentTokens !== undefined ? { keepRecentTokens: this.options.keepRecentTokens } : {}),
      ...(this.options.keepRecentMessages !== undefined ? { keepRecentMessages: this.options.keepRecentMessages } : {}),
      ...(this.options.summaryTimeoutMs !== undefined ? { timeoutMs: this.options.summaryTimeoutMs } : {}),
    };
    this.compacting = true;
    try {
      return await maybeCompact(conversation, options);
    } finally {
      this.compacting = false;
      this.estimateAtRequest = this.accountant.rawInputEstimate();
    }
  }

  /** The system prompt and tools cost the same every request: re-estimated only when they change. */
  private describe(system: string, tools: readonly ToolSpec[]): void {
    if (system !== this.system) {
      this.system = system;
      this.accountant.setSystem(system);
    }
    if (tools !== this.tools && !sameItems(tools, this.tools)) this.accountant.setTools(tools);
    this.tools = tools;
  }

  private measured(): Extract<EngineEvent, { type: 'context_usage' }> {
    return contextUsageEvent(this.accountant);
  }

  private reserveFor(model: ContextModel): number {
    if (this.options.outputReserve !== undefined) return this.options.outputReserve;
    return Math.min(model.maxOutput, 16_384, Math.floor(model.contextWindow / 4));
  }
}
