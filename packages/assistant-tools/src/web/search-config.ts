import { z } from 'zod';
import { SEARCH_BACKENDS, type SearchBackendConfig, type SearchBackendName } from './search-backend.js';

const BackendSchema = z
  .object({
    backend: z.enum(SEARCH_BACKENDS as [SearchBackendName, ...SearchBackendName[]]),
    url: z.string().url().optional(),
    apiKeyEnv: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be a variable name')
      .optional(),
  })
  .strict();

/** config.json `webSearch`: one backend, or several tried in order when one is rate limited or down. */
export const WebSearchSettingSchema = z.union([BackendSchema, z.array(BackendSchema).min(1).max(8)]);

export const DEFAULT_KEY_ENV: Partial<Record<SearchBackendName, string>> = { brave: 'BRAVE_API_KEY', tavily: 'TAVILY_API_KEY' };

/**
 * The backends to try, in order. `TANDEM_WEB_SEARCH` (`BACKEND` or `BACKEND:URL`, e.g.
 * `searxng:http://127.0.0.1:8888`) wins over config.json `webSearch`; without either,
 * DuckDuckGo's HTML endpoint.
 */
export function searchBackendConfigs(setting: unknown, env: Record<string, string | undefined>): SearchBackendConfig[] {
  const fromEnv = env.TANDEM_WEB_SEARCH?.trim();
  if (fromEnv) return [parseEnvSetting(fromEnv)];
  if (setting === undefined) return [{ backend: 'duckduckgo' }];
  const parsed = WebSearchSettingSchema.safeParse(setting);
  if (!parsed.success) {
    throw new Error(`config.json webSearch is not valid: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'webSearch'}: ${i.message}`).join('; ')}`);
  }
  return (Array.isArray(parsed.data) ? parsed.data : [parsed.data]).map(dropUndefined);
}

function parseEnvSetting(value: string): SearchBackendConfig {
  const colon = value.indexOf(':');
  const name = (colon === -1 ? value : value.slice(0, colon)).toLowerCase();
  const url = colon === -1 ? undefined : value.slice(colon + 1);
  if (!(SEARCH_BACKENDS as readonly string[]).includes(name)) {
    throw new Error(`TANDEM_WEB_SEARCH names an unknown backend "${name}"; use one of ${SEARCH_BACKENDS.join(', ')} (optionally BACKEND:URL)`);
  }
  if (url !== undefined && !URL.canParse(url)) throw new Error(`TANDEM_WEB_SEARCH has an invalid URL "${url}"`);
  return dropUndefined({ backend: name as SearchBackendName, url });
}

function dropUndefined(config: { backend: SearchBackendName; url?: string | undefined; apiKeyEnv?: string | undefined }): SearchBackendConfig {
  return {
    backend: config.backend,
    ...(config.url !== undefined ? { url: config.url } : {}),
    ...(config.apiKeyEnv !== undefined ? { apiKeyEnv: config.apiKeyEnv } : {}),
  };
}
