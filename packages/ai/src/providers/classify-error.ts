import type OpenAI from 'openai';
import type Anthropic from '@anthropic-ai/sdk';
import { loadedAnthropicSdk } from './anthropic-sdk.js';
import { loadedOpenAISdk } from './openai-sdk.js';
import { ProviderError, type ProviderErrorKind } from './provider-error.js';

export interface ClassifyContext {
  provider: string;
  model: string;
  /** True once the reply had produced content. */
  afterContent?: boolean;
}

type SdkApiError = InstanceType<typeof OpenAI.APIError> | InstanceType<typeof Anthropic.APIError>;

// Both SDKs are loaded on first use (anthropic-sdk.ts, openai-sdk.ts); until then none of their errors exist.
function isApiError(err: unknown): err is SdkApiError {
  const openai = loadedOpenAISdk();
  const anthropic = loadedAnthropicSdk();
  return (openai !== undefined && err instanceof openai.APIError) || (anthropic !== undefined && err instanceof anthropic.APIError);
}

function isConnectionError(err: unknown): boolean {
  const openai = loadedOpenAISdk();
  const anthropic = loadedAnthropicSdk();
  return (openai !== undefined && err instanceof openai.APIConnectionError) || (anthropic !== undefined && err instanceof anthropic.APIConnectionError);
}

function isUserAbort(err: unknown): boolean {
  const openai = loadedOpenAISdk();
  const anthropic = loadedAnthropicSdk();
  return (openai !== undefined && err instanceof openai.APIUserAbortError) || (anthropic !== undefined && err instanceof anthropic.APIUserAbortError);
}

/** Parses Retry-After (seconds or an HTTP date) and retry-after-ms into milliseconds. */
export function retryAfterMs(headers: Headers | Record<string, string> | undefined, now = Date.now()): number | undefined {
  if (!headers) return undefined;
  const get = (name: string): string | null | undefined => (headers instanceof Headers ? headers.get(name) : (headers as Record<string, string>)[name]);
  const ms = get('retry-after-ms');
  if (ms && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const value = get('retry-after');
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isFinite(date) ? Math.max(0, date - now) : undefined;
}

/** The error body's machine-readable type/code, when the provider sent one (not its prose). */
function errorTypes(err: SdkApiError): string[] {
  type Body = { type?: unknown; code?: unknown; details?: unknown };
  const body = err.error as (Body & { error?: Body }) | undefined;
  // Every machine-readable marker counts: OpenAI puts the useful one in `code` beside a generic
  // `type` (e.g. invalid_request_error + context_length_exceeded).
  const candidates = [body?.error?.type, body?.error?.code, body?.type, body?.code];
  const found = candidates.filter((c): c is string => typeof c === 'string');
  // Google's APIs answer a bad key with 400 INVALID_ARGUMENT and an ErrorInfo reason.
  const details = body?.error?.details ?? body?.details;
  const reasons = Array.isArray(details) ? details.map((d: { reason?: unknown }) => d?.reason).filter((r): r is string => typeof r === 'string') : [];
  return [...reasons, ...found];
}

function kindFromStatus(status: number | undefined, types: readonly string[]): ProviderErrorKind {
  const has = (...names: string[]) => names.some((n) => types.includes(n));
  if (has('context_length_exceeded', 'request_too_large')) return 'context_overflow';
  if (has('API_KEY_INVALID', 'invalid_api_key', 'authentication_error')) return 'auth';
  if (has('insufficient_quota', 'billing_error')) return 'billing';
  if (has('content_filter', 'content_policy_violation')) return 'content_policy';
  if (has('overloaded_error')) return 'server';
  if (status === undefined) return 'network';
  if (status === 429) return 'rate_limit';
  if (status === 401 || status === 403) return 'auth';
  if (status === 402) return 'billing';
  if (status === 408) return 'network';
  if (status === 413) return 'context_overflow';
  if (status >= 500) return 'server';
  return 'bad_request';
}

const ADVICE: Record<ProviderErrorKind, string> = {
  rate_limit: 'the key is rate limited; Tandem will wait or try another key or model',
  auth: 'check the API key for this provider',
  billing: 'the account has no balance or quota left; add credit or use another key',
  server: 'the provider is having trouble; try again shortly or pick another model',
  network: 'check the network and the base URL',
  bad_request: 'the request was refused as malformed; this is likely a bug or an unsupported model option',
  content_policy: 'the provider refused the content under its policy; rephrase the request',
  context_overflow: "the conversation is larger than the model's context window; compact it or start a new session",
  stream_cut: 'the connection dropped mid-reply; try again',
  aborted: 'the request was cancelled',
};

export function describeProviderError(kind: ProviderErrorKind, ctx: ClassifyContext, status?: number): string {
  const where = `${ctx.provider} model ${ctx.model}`;
  const code = status !== undefined ? ` (HTTP ${status})` : '';
  // Nothing at that address: most often a base URL missing or doubling its /v1, or a model name the endpoint lacks.
  const advice = kind === 'bad_request' && status === 404 ? 'nothing answers at that address; check the base URL and the model name' : ADVICE[kind];
  return `${where} failed${code}: ${advice}.`;
}

/** The SDKs do not follow redirects (adapter-options.ts); undici names the refusal in the error's causes. */
function refusedRedirect(err: unknown): boolean {
  for (let cause: unknown = err, depth = 0; cause instanceof Error && depth < 5; cause = cause.cause, depth++) {
    if (cause.message === 'unexpected redirect') return true;
  }
  return false;
}

function describeRefusedRedirect(ctx: ClassifyContext): string {
  return (
    `${ctx.provider} model ${ctx.model} failed: the server at the base URL answered with a redirect, ` +
    'which Tandem does not follow for model requests; set the base URL to the address it redirects to.'
  );
}

/** Maps anything an SDK threw into a classified, readable ProviderError. */
export function classifyProviderError(err: unknown, ctx: ClassifyContext): ProviderError {
  if (err instanceof ProviderError) return err;
  const base = { provider: ctx.provider, model: ctx.model, afterContent: ctx.afterContent ?? false, cause: err };
  if (isUserAbort(err) || (err instanceof Error && err.name === 'AbortError')) {
    return new ProviderError('aborted', describeProviderError('aborted', ctx), base);
  }
  if (isConnectionError(err)) {
    const message = refusedRedirect(err) ? describeRefusedRedirect(ctx) : describeProviderError('network', ctx);
    return new ProviderError('network', message, base);
  }
  if (isApiError(err)) {
    const status = err.status ?? undefined;
    const kind = kindFromStatus(status, errorTypes(err));
    const headers = err.headers as Headers | Record<string, string> | undefined;
    return new ProviderError(kind, describeProviderError(kind, ctx, status), {
      ...base,
      ...(status !== undefined ? { status } : {}),
      ...(retryAfterMs(headers) !== undefined ? { retryAfterMs: retryAfterMs(headers) } : {}),
    });
  }
  return new ProviderError('stream_cut', describeProviderError('stream_cut', ctx), base);
}
