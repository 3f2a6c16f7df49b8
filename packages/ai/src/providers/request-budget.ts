import type { Message } from '../messages.js';
import type { CatalogEntry } from './catalog-entry.js';
import { ProviderError } from './provider-error.js';
import type { ModelRequest, ToolSpec } from './types.js';

export type TokenEstimator = (text: string) => number;

/** The fallback estimate when no better one is supplied: four characters a token. */
export const charsOverFour: TokenEstimator = (text) => Math.ceil(text.length / 4);

/** Fewest output tokens worth sending a request for. */
const MIN_OUTPUT_TOKENS = 256;

/** The largest default output budget an adapter applies on its own (Anthropic requires one). */
const ADAPTER_DEFAULT_OUTPUT = 16_384;

export interface RequestBudget {
  toolTokens: number;
  systemTokens: number;
  messageTokens: number;
  inputTokens: number;
}

/**
 * Estimates a request's size, caching per message and per tool object so a long session pays
 * for its new messages only, not for the whole history again.
 */
export class RequestSizer {
  private readonly messages = new WeakMap<Message, number>();
  private readonly tools = new WeakMap<ToolSpec, number>();

  constructor(private readonly estimate: TokenEstimator = charsOverFour) {}

  private messageTokens(m: Message): number {
    let n = this.messages.get(m);
    if (n === undefined) {
      const text = m.role === 'user' ? m.text : m.role === 'tool' ? `${m.name}${m.output}` : m.text + m.toolCalls.map((c) => `${c.name}${c.rawArgs}`).join('');
      n = this.estimate(text) + 4;
      this.messages.set(m, n);
    }
    return n;
  }

  private toolTokens(t: ToolSpec): number {
    let n = this.tools.get(t);
    if (n === undefined) {
      n = this.estimate(JSON.stringify({ name: t.name, description: t.description, parameters: t.parameters }));
      this.tools.set(t, n);
    }
    return n;
  }

  /** The messages of the last request and their running totals (totals[i] = tokens of 0..i). */
  private seen: Message[] = [];
  private totals: number[] = [];
  private lastSystem: { text: string; tokens: number } | undefined;

  /**
   * A running total: the messages the last request also had (the same objects, in the same
   * places) keep their sum; only the ones after them are estimated and added. A history that
   * changed in the middle (compaction) is summed again from the first difference.
   */
  private messageTotal(messages: readonly Message[]): number {
    let same = 0;
    const n = Math.min(messages.length, this.seen.length);
    while (same < n && messages[same] === this.seen[same]) same++;
    this.seen.length = same;
    this.totals.length = same;
    let total = same > 0 ? this.totals[same - 1]! : 0;
    for (let i = same; i < messages.length; i++) {
      const m = messages[i]!;
      total += this.messageTokens(m);
      this.seen.push(m);
      this.totals.push(total);
    }
    return total;
  }

  measure(request: ModelRequest): RequestBudget {
    const toolTokens = request.tools.reduce((sum, t) => sum + this.toolTokens(t), 0);
    if (this.lastSystem?.text !== request.system) this.lastSystem = { text: request.system, tokens: this.estimate(request.system) };
    const systemTokens = this.lastSystem.tokens;
    const messageTokens = this.messageTotal(request.messages);
    return { toolTokens, systemTokens, messageTokens, inputTokens: toolTokens + systemTokens + messageTokens };
  }
}

function fmt(n: number): string {
  return n.toLocaleString('en-US');
}

/**
 * requirements M6: counts tool definitions, system prompt and messages against the model's window
 * before anything is sent. Returns the output budget to request, or a context_overflow error
 * that says where the tokens went.
 */
export function fitRequest(
  request: ModelRequest,
  entry: Pick<CatalogEntry, 'id' | 'provider' | 'contextWindow' | 'maxOutput'>,
  sizer: RequestSizer,
): { maxOutputTokens?: number; budget: RequestBudget } | { error: ProviderError; budget: RequestBudget } {
  const budget = sizer.measure(request);
  const window = entry.contextWindow;
  const room = window - budget.inputTokens;
  if (room < MIN_OUTPUT_TOKENS) {
    const model = entry.id.slice(entry.provider.length + 1);
    const parts =
      `tool definitions alone take ${fmt(budget.toolTokens)} of ${fmt(window)} tokens, ` +
      `the system prompt ${fmt(budget.systemTokens)} and the conversation ${fmt(budget.messageTokens)}`;
    const message = `${entry.provider} model ${model}: the request does not fit the context window: ${parts}; compact the conversation, start a new session or pick a model with a larger window.`;
    return {
      budget,
      error: new ProviderError('context_overflow', message, { provider: entry.provider, model, afterContent: false }),
    };
  }
  if (request.maxOutputTokens !== undefined) {
    const wanted = Math.min(request.maxOutputTokens, entry.maxOutput);
    return { budget, maxOutputTokens: Math.max(MIN_OUTPUT_TOKENS, Math.min(wanted, room)) };
  }
  // No explicit budget: leave the adapter's default unless the window cannot hold it.
  return room < ADAPTER_DEFAULT_OUTPUT ? { budget, maxOutputTokens: room } : { budget };
}
