import { duckDuckGoBackend } from './search-duckduckgo.js';
import { braveBackend, searxngBackend, tavilyBackend } from './search-json-backends.js';
import { DEFAULT_KEY_ENV } from './search-config.js';
import { SearchBackendError, type SearchBackend, type SearchBackendConfig, type SearchResult } from './search-backend.js';

export interface SearchAnswer {
  results: SearchResult[];
  /** The backend that answered. */
  backend: string;
  /** One sentence per backend that was tried first and could not answer. */
  notes: string[];
  cached: boolean;
}

export interface WebSearcher {
  search(query: string, max: number, signal: AbortSignal): Promise<SearchAnswer>;
}

export interface WebSearcherOptions {
  env: Record<string, string | undefined>;
  now?: () => number;
  /** How long an answer is reused for the same query (5 min). */
  cacheTtlMs?: number;
  cacheEntries?: number;
}

/** No backend could answer; says what each one did. */
export class WebSearchError extends Error {}

/**
 * The configured backends, tried in order: a backend that is rate limited, blocked, missing its
 * key or down is skipped with a note and the next one answers. Answers are kept in a small
 * in-memory cache per query, so a model repeating a search does not hit the rate limit.
 */
export function createWebSearcher(configs: SearchBackendConfig[], options: WebSearcherOptions): WebSearcher {
  const now = options.now ?? Date.now;
  const ttl = options.cacheTtlMs ?? 5 * 60_000;
  const maxEntries = options.cacheEntries ?? 100;
  const cache = new Map<string, { at: number; answer: SearchAnswer }>();
  return {
    async search(query, max, signal) {
      const key = `${max}\u0000${query.trim().toLowerCase()}`;
      const hit = cache.get(key);
      if (hit && now() - hit.at < ttl) return { ...hit.answer, cached: true };
      const notes: string[] = [];
      for (const config of configs) {
        const backend = build(config, options.env, notes);
        if (!backend) continue;
        try {
          const results = await backend.search({ query, max, signal });
          const answer: SearchAnswer = { results, backend: backend.name, notes, cached: false };
          cache.delete(key);
          cache.set(key, { at: now(), answer });
          if (cache.size > maxEntries) cache.delete(cache.keys().next().value as string);
          return answer;
        } catch (err) {
          if (!(err instanceof SearchBackendError)) throw err;
          notes.push(err.message);
        }
      }
      throw new WebSearchError(`web search failed: ${notes.join('; ')}`);
    },
  };
}

function build(config: SearchBackendConfig, env: Record<string, string | undefined>, notes: string[]): SearchBackend | undefined {
  switch (config.backend) {
    case 'duckduckgo':
      return duckDuckGoBackend(config.url);
    case 'searxng':
      if (!config.url) {
        notes.push('searxng: no url configured (webSearch.url or TANDEM_WEB_SEARCH=searxng:URL)');
        return undefined;
      }
      return searxngBackend(config.url);
    case 'brave':
    case 'tavily': {
      const keyEnv = config.apiKeyEnv ?? DEFAULT_KEY_ENV[config.backend]!;
      const key = env[keyEnv];
      if (!key) {
        notes.push(`${config.backend}: no key (set ${keyEnv})`);
        return undefined;
      }
      return config.backend === 'brave' ? braveBackend(key, config.url) : tavilyBackend(key, config.url);
    }
  }
}
