import type { ProvidersConfig } from './config.js';
import type { CatalogEntry } from './catalog-entry.js';
import { keyHint } from './credentials.js';
import { ProviderError } from './provider-error.js';

const KIND_TEXT: Record<ProviderError['kind'], string> = {
  rate_limit: 'rate limited',
  auth: 'authentication failed',
  billing: 'no balance or quota',
  server: 'server error',
  network: 'network error',
  bad_request: 'request refused',
  content_policy: 'refused by content policy',
  context_overflow: 'context window exceeded',
  stream_cut: 'stream cut before any content',
  aborted: 'cancelled',
};

/** A short reason for events and summaries, e.g. `server error (HTTP 503), 3 retries spent`. */
export function failureReason(error: ProviderError, retries?: number): string {
  const status = error.details.status !== undefined ? ` (HTTP ${error.details.status})` : '';
  const spent = retries ? `, ${retries} ${retries === 1 ? 'retry' : 'retries'} spent` : '';
  return `${KIND_TEXT[error.kind]}${status}${spent}`;
}

/** The one error thrown when every model of the chain failed: says what was tried, and what to do. */
export function chainExhausted(tried: readonly string[], last: ProviderError, cycleAt?: string): ProviderError {
  const cycle = cycleAt ? `; the fallback chain loops back to ${cycleAt}, so it stopped there` : '';
  const message = `No model could answer: tried ${tried.join(', ')}${cycle}. Check the keys and endpoints of these providers, or pick another model.`;
  return new ProviderError(last.kind, message, { ...last.details, afterContent: false });
}

/**
 * The error when neither the model asked for nor any model it falls back to has a key (a first
 * run without one): which providers lack one and how to set the first, in one sentence.
 */
export function noKeyAnywhere(primary: CatalogEntry, fallbacks: readonly CatalogEntry[], config?: ProvidersConfig): ProviderError {
  const providers = [...new Set([primary, ...fallbacks].map((e) => e.provider))];
  const names = providers.length === 1 ? providers[0] : `${providers.slice(0, -1).join(', ')} or ${providers.at(-1)}`;
  const message =
    `No model can answer: no API key is set for ${names}. To use ${primary.id}, ${keyHint(primary.provider, config)} ` +
    '(a variable must be in the environment the server started with: run `tandem restart` after setting it; config.json is read again on the next turn).';
  return new ProviderError('auth', message, { provider: primary.provider, model: primary.id.slice(primary.provider.length + 1), afterContent: false });
}
