import type { EventBody as EngineEvent } from '@tandem/shared';
import type { Clock } from '../ports/clock.js';
import { NO_KEY, type AdapterFactory } from './adapter-factory.js';
import { backoffDelay, MAX_ALONE_RETRIES, MAX_ALONE_WAIT_MS, MAX_IN_PLACE_WAIT_MS, MAX_RETRIES } from './backoff.js';
import type { Catalog } from './catalog.js';
import type { CatalogEntry } from './catalog-entry.js';
import { classifyProviderError, describeProviderError } from './classify-error.js';
import type { ProvidersConfig } from './config.js';
import { keyHint, missingKey, providerAccess, scrubKeys, type ApiKey, type ProviderAccess } from './credentials.js';
import { FallbackChain } from './fallback-chain.js';
import { KEY_COOLDOWN_MS, type Governor } from './governor.js';
import { hasOtherKey, pickKey } from './key-selection.js';
import { discoverContextWindow } from './local-context.js';
import { ProviderError } from './provider-error.js';
import { fitRequest, RequestSizer, type TokenEstimator } from './request-budget.js';
import type { ModelClient, ModelRequest, ModelStreamEvent } from './types.js';
import { findProvider, sendsPromptCacheKey } from './registry.js';
import { costOf } from './model-price.js';
import { failureReason, chainExhausted, noKeyAnywhere } from './failure-text.js';
import { DEFAULT_STALL_LIMITS, guardStalls, StallError, type StallLimits } from './stall-guard.js';

export interface ResilientClientOptions {
  primary: CatalogEntry;
  catalog: Catalog;
  env: NodeJS.ProcessEnv;
  config: ProvidersConfig;
  governor: Governor;
  clock: Clock;
  createAdapter: AdapterFactory;
  onEvent?: (e: EngineEvent) => void;
  estimateTokens?: TokenEstimator;
  /** Models to try in order instead of following catalog `fallback` links (the memory chain). */
  chain?: readonly string[];
  /** How long a silent reply is tolerated before it is abandoned as a network failure. */
  stallLimits?: StallLimits;
  /** For jitter; tests pass a fixed one. */
  random?: () => number;
}

const NO_KEY_REASON = 'no API key configured';

type Attempt = { ok: true } | { ok: false; error: ProviderError; reason: string };

/**
 * The transport layer (requirements M3–M5) as one ModelClient: key rotation with cooldowns, retries in
 * place with backoff, the fallback chain across providers and protocols, the shared governor,
 * and the context-window check (M6). Fails over only before the reply's first content (M4).
 */
export class ResilientModelClient implements ModelClient {
  readonly id: string;
  /** The model that produced the last reply (after a fallback, not the one asked for). */
  lastModel: string | undefined;
  private readonly sizer: RequestSizer;
  private readonly adapters = new Map<string, ModelClient>();

  constructor(private readonly o: ResilientClientOptions) {
    this.id = o.primary.id;
    this.sizer = new RequestSizer(o.estimateTokens);
  }

  async *stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelStreamEvent> {
    const chain = new FallbackChain(this.o.catalog, this.o.primary, this.o.chain);
    const tried: string[] = [];
    let entry: CatalogEntry | undefined = this.o.primary;
    let lastError: ProviderError | undefined;
    while (entry) {
      const current: CatalogEntry = entry;
      const attempt: Attempt = yield* this.tryModel(entry, request, signal, entry === this.o.primary, () => this.canFallBack(chain, current));
      if (attempt.ok) return;
      // No key anywhere in the chain (a first run): one sentence on setting a key, not a walk through every provider.
      if (attempt.reason === NO_KEY_REASON && entry === this.o.primary) {
        const upcoming = chain.upcoming(entry);
        if (upcoming.every((next) => missingKey(providerAccess(next, this.o.env, this.o.config)))) throw noKeyAnywhere(entry, upcoming, this.o.config);
      }
      tried.push(`${entry.id} (${attempt.reason})`);
      lastError = attempt.error;
      const next = chain.next(entry);
      if (!next) break;
      this.o.onEvent?.({ type: 'model_fallback', from: entry.id, to: next.id, reason: attempt.reason });
      entry = next;
    }
    if (tried.length === 1 && lastError) throw lastError;
    throw chainExhausted(tried, lastError!, chain.cycleAt);
  }

  private async *tryModel(
    entry: CatalogEntry,
    request: ModelRequest,
    signal: AbortSignal,
    isPrimary: boolean,
    /** Whether a later model in the chain could answer now (a key not cooling down, an endpoint). */
    canFallBack: () => boolean,
  ): AsyncGenerator<ModelStreamEvent, Attempt> {
    const access = providerAccess(entry, this.o.env, this.o.config);
    const model = entry.id.slice(entry.provider.length + 1);
    if (missingKey(access)) {
      const error = new ProviderError('auth', `${entry.provider} model ${model} has no API key: ${keyHint(entry.provider, this.o.config)}.`, {
        provider: entry.provider,
        model,
        afterContent: false,
      });
      return { ok: false, error, reason: NO_KEY_REASON };
    }
    if (!access.baseURL) {
      const error = new ProviderError(
        'bad_request',
        `${entry.provider} model ${model} has no endpoint: set providers.${entry.provider}.baseURL in config.json.`,
        {
          provider: entry.provider,
          model,
          afterContent: false,
        },
      );
      return { ok: false, error, reason: 'no base URL configured' };
    }
    const sized = await this.withLocalWindow(entry, access, model);
    const fit = fitRequest(request, sized, this.sizer);
    if ('error' in fit) {
      if (isPrimary) throw fit.error;
      return { ok: false, error: fit.error, reason: 'the request does not fit its context window' };
    }
    const sent: ModelRequest = { ...request };
    if (fit.maxOutputTokens !== undefined) sent.maxOutputTokens = fit.maxOutputTokens;
    else delete sent.maxOutputTokens;
    if (entry.temperature === false) delete sent.temperature;

    let retries = 0;
    for (;;) {
      const key = access.keyless ? undefined : pickKey(access.keys, this.o.governor, access.requestsPerMinute);
      if (!access.keyless && !key && !canFallBack()) {
        // One key is not a lockout: with nowhere else to go, wait for the first rate-limit
        // cooldown to end (visibly) instead of failing. Account errors (auth, billing) still fail.
        const waitMs = this.rateLimitCooldownLeft(access.keys);
        if (waitMs !== undefined && retries < MAX_ALONE_RETRIES) {
          retries += 1;
          this.o.onEvent?.({ type: 'model_retry', model: entry.id, attempt: retries, delayMs: waitMs, reason: 'every key is cooling down after a rate limit' });
          await this.wait(() => this.o.clock.sleep(waitMs, signal), entry, model);
          continue;
        }
      }
      if (!access.keyless && !key) {
        const error = new ProviderError(
          'rate_limit',
          `${entry.provider} model ${model}: every API key is cooling down after rate limit or account errors; wait or add another key.`,
          {
            provider: entry.provider,
            model,
            afterContent: false,
          },
        );
        return { ok: false, error, reason: 'every key is cooling down' };
      }
      const keyId = key?.id ?? `${entry.provider}#keyless`;
      await this.wait(() => this.o.governor.acquire(keyId, access.requestsPerMinute, signal), entry, model);
      let content = false;
      try {
        const adapter = this.adapter(entry, model, access, key);
        const events = guardStalls((s) => adapter.stream(sent, s), signal, this.o.clock, this.o.stallLimits ?? DEFAULT_STALL_LIMITS);
        for await (const event of events) {
          if (!content && (event.type === 'text_delta' || event.type === 'tool_call')) {
            content = true;
            this.lastModel = entry.id;
          }
          // Priced by the model that answered (after a fallback, not the one asked for).
          if (event.type === 'usage' && entry.price) yield { ...event, costUsd: costOf(event, entry.price) };
          else yield event;
        }
        this.lastModel = entry.id;
        return { ok: true };
      } catch (caught) {
        const err = scrubKeys(caught, access.keys);
        const error =
          err instanceof StallError
            ? new ProviderError(
                'network',
                `${entry.provider} model ${model} sent nothing for ${Math.round(err.waitedMs / 1000)} s: the provider may be overloaded or the connection hung; try again or pick another model.`,
                { provider: entry.provider, model, afterContent: content, cause: err },
              )
            : classifyProviderError(err, { provider: entry.provider, model, afterContent: content });
        if (content || error.details.afterContent) {
          // M4: content reached the user; repeating the request could repeat side effects.
          throw error.details.afterContent ? error : new ProviderError(error.kind, error.message, { ...error.details, afterContent: true });
        }
        if (signal.aborted || error.kind === 'aborted') throw error;
        const verdict = this.decide(error, key, access, retries, canFallBack);
        if (verdict === 'throw') throw error;
        if (verdict === 'next-key') continue;
        if (verdict === 'next-model') return { ok: false, error, reason: failureReason(error, retries) };
        retries += 1;
        const delayMs = backoffDelay(retries, error.details.retryAfterMs, this.o.random);
        this.o.onEvent?.({ type: 'model_retry', model: entry.id, attempt: retries, delayMs, reason: failureReason(error) });
        await this.wait(() => this.o.clock.sleep(delayMs, signal), entry, model);
      }
    }
  }

  /** What to do after a failure before any content (requirements M3, M5). */
  private decide(
    error: ProviderError,
    key: ApiKey | undefined,
    access: ProviderAccess,
    retries: number,
    canFallBack: () => boolean,
  ): 'throw' | 'retry' | 'next-key' | 'next-model' {
    const g = this.o.governor;
    const cooldownMs = this.o.config.keyCooldownMs ?? KEY_COOLDOWN_MS;
    const retryAfter = error.details.retryAfterMs;
    const waitable = retryAfter === undefined || retryAfter <= MAX_IN_PLACE_WAIT_MS;
    switch (error.kind) {
      case 'bad_request':
      case 'content_policy':
      case 'context_overflow':
      case 'aborted':
        return 'throw';
      case 'auth':
      case 'billing':
        if (!key) return 'next-model';
        g.coolDown(key.id, cooldownMs, error.kind);
        return hasOtherKey(access.keys, key, g) ? 'next-key' : 'next-model';
      case 'rate_limit':
        if (retryAfter !== undefined) g.pause(key?.id ?? `${access.provider}#keyless`, retryAfter);
        // The cooldown applies only when there is somewhere else to go (another key, another model).
        if (key && hasOtherKey(access.keys, key, g)) {
          g.coolDown(key.id, Math.max(cooldownMs, retryAfter ?? 0), 'rate_limit');
          return 'next-key';
        }
        if (canFallBack()) {
          if (retries < MAX_RETRIES && waitable) return 'retry';
          if (key) g.coolDown(key.id, Math.max(cooldownMs, retryAfter ?? 0), 'rate_limit');
          return 'next-model';
        }
        // Alone: wait as the provider says (Retry-After, else backoff) and try again; no cooldown,
        // so the next turn may try at once even when this one gives up.
        return retries < MAX_ALONE_RETRIES && (retryAfter === undefined || retryAfter <= MAX_ALONE_WAIT_MS) ? 'retry' : 'next-model';
      case 'server':
      case 'network':
      case 'stream_cut':
        return retries < MAX_RETRIES && waitable ? 'retry' : 'next-model';
    }
  }

  /** Whether a later model in the chain could answer now: it has an endpoint and a key (or needs none) not cooling down. */
  private canFallBack(chain: FallbackChain, current: CatalogEntry): boolean {
    return chain.upcoming(current).some((next) => {
      const access = providerAccess(next, this.o.env, this.o.config);
      if (!access.baseURL) return false;
      return access.keyless || access.keys.some((k) => !this.o.governor.isCooling(k.id));
    });
  }

  /** Milliseconds until the first of these keys leaves a rate-limit cooldown; undefined when any cooldown is an account error. */
  private rateLimitCooldownLeft(keys: readonly ApiKey[]): number | undefined {
    let first: number | undefined;
    for (const key of keys) {
      const cooling = this.o.governor.cooldown(key.id);
      if (!cooling) return 0;
      if (cooling.reason !== 'rate_limit') continue;
      const left = Math.max(0, cooling.until - this.o.clock.now());
      first = first === undefined ? left : Math.min(first, left);
    }
    return first;
  }

  /** Waits on the clock or the governor; a cancel while waiting becomes an `aborted` ProviderError. */
  private async wait(waiting: () => Promise<void>, entry: CatalogEntry, model: string): Promise<void> {
    try {
      await waiting();
    } catch (err) {
      throw new ProviderError('aborted', describeProviderError('aborted', { provider: entry.provider, model }), {
        provider: entry.provider,
        model,
        afterContent: false,
        cause: err,
      });
    }
  }

  private async withLocalWindow(entry: CatalogEntry, access: ProviderAccess, model: string): Promise<CatalogEntry> {
    const local = findProvider(entry.provider)?.local;
    if (!local) return entry;
    const window = await discoverContextWindow(local, access.baseURL, model);
    return window ? { ...entry, contextWindow: window, maxOutput: Math.min(entry.maxOutput, window) } : entry;
  }

  private adapter(entry: CatalogEntry, model: string, access: ProviderAccess, key: ApiKey | undefined): ModelClient {
    const cacheKey = `${entry.id} ${key?.id ?? ''}`;
    let adapter = this.adapters.get(cacheKey);
    if (!adapter) {
      adapter = this.o.createAdapter(entry.protocol, {
        id: entry.id,
        model,
        baseURL: access.baseURL,
        apiKey: key?.reveal() ?? NO_KEY,
        headers: access.headers,
        maxRetries: 0,
        supportsTemperature: entry.temperature !== false,
        supportsImages: entry.images !== false,
        maxTokensField: entry.provider === 'openai' ? 'max_completion_tokens' : 'max_tokens',
        promptCacheKey: sendsPromptCacheKey(entry.provider, this.o.config.providers?.[entry.provider]),
      });
      this.adapters.set(cacheKey, adapter);
    }
    return adapter;
  }
}
