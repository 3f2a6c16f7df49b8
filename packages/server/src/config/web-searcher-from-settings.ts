import type { Logger } from 'pino';
import { createWebSearcher, searchBackendConfigs, WebSearchError, type WebSearcher } from '@tandem/assistant-tools';
import type { Clock } from '@tandem/ai';

/**
 * The server's one web searcher (its cache is shared by every session). A bad TANDEM_WEB_SEARCH
 * does not stop the server: it is logged at start and each web_search call says what is wrong.
 */
export function webSearcherFromSettings(setting: unknown, env: Record<string, string | undefined>, clock: Clock, logger: Logger): WebSearcher {
  try {
    return createWebSearcher(searchBackendConfigs(setting, env), { env, now: () => clock.now() });
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    logger.warn({ err: message }, 'web search is not configured correctly');
    return {
      search: () => Promise.reject(new WebSearchError(`web search is not configured correctly: ${message}`)),
    };
  }
}
