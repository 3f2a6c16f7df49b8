export interface SearchResult {
  title: string;
  url: string;
  snippet: string;
}

export type SearchBackendName = 'duckduckgo' | 'searxng' | 'brave' | 'tavily';
export const SEARCH_BACKENDS: readonly SearchBackendName[] = ['duckduckgo', 'searxng', 'brave', 'tavily'];

/** One configured backend, as config.json `webSearch` or TANDEM_WEB_SEARCH gives it. */
export interface SearchBackendConfig {
  backend: SearchBackendName;
  /** Endpoint override (required for searxng). */
  url?: string;
  /** Name of the environment variable holding the key (brave, tavily). */
  apiKeyEnv?: string;
}

export interface SearchRequest {
  query: string;
  max: number;
  signal: AbortSignal;
}

export interface SearchBackend {
  readonly name: SearchBackendName;
  search(request: SearchRequest): Promise<SearchResult[]>;
}

/**
 * A backend that could not answer: `rate_limited` (429, DuckDuckGo's 202 challenge page),
 * `blocked` (403, a captcha, a key refused), `failed` (anything else). The searcher then
 * tries the next configured backend and says what happened to this one.
 */
export class SearchBackendError extends Error {
  constructor(
    readonly backend: SearchBackendName,
    readonly kind: 'rate_limited' | 'blocked' | 'failed',
    message: string,
  ) {
    super(`${backend}: ${message}`);
    this.name = 'SearchBackendError';
  }
}

/** Maps an HTTP status that is not a result to the backend error it means. */
export function statusError(backend: SearchBackendName, status: number, what = ''): SearchBackendError {
  if (status === 429) return new SearchBackendError(backend, 'rate_limited', `rate limited (HTTP 429)${what}; try again later`);
  if (status === 401 || status === 403) return new SearchBackendError(backend, 'blocked', `refused (HTTP ${status})${what}`);
  return new SearchBackendError(backend, 'failed', `answered HTTP ${status}${what}`);
}

/** GET/POST JSON with the request's signal; network failures become `failed` backend errors. */
export async function fetchOrFail(backend: SearchBackendName, url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (err) {
    if (init.signal?.aborted) throw err;
    const cause = err instanceof Error && err.cause instanceof Error ? `: ${err.cause.message}` : '';
    throw new SearchBackendError(backend, 'failed', `could not be reached at ${new URL(url).origin}${cause}`);
  }
}
