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

  measure(request: ModelRequest): RequestBudget {
    const toolTokens = request.tools.reduce((sum, t) => sum + this.toolTokens(t), 0);
    const systemTokens = this.estimate(request.system);
    const messageTokens = request.messages.reduce((sum, m) => sum + this.messageTokens(m), 0);
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
