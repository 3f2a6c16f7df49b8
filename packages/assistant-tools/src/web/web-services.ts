import type { ToolServices } from '@tandem/core';
import type { WebSearcher } from './web-searcher.js';

/**
 * What the host configures for the web tools (config.json `webFetch`, `webSearch`):
 * - `webFetch.allowHosts`: hosts web_fetch may reach although they resolve to loopback or private addresses;
 * - `webSearcher`: the configured search backends with their cache (one per server).
 */
export interface WebFetchSettings {
  allowHosts?: string[];
  /** Bytes read from the network at most (5 MB). */
  maxBytes?: number;
  timeoutMs?: number;
  maxRedirects?: number;
  /** Characters of page text handed to the model at most. */
  maxChars?: number;
}

/** The web tools' host services: `webFetch` for web_fetch, `webSearcher` for web_search. */
export interface WebServices {
  webFetch?: WebFetchSettings;
  webSearcher?: WebSearcher;
}

declare module '@tandem/core' {
  interface ToolServices extends WebServices {}
}

export const WEB_FETCH_DEFAULTS = {
  maxBytes: 5 * 1024 * 1024,
  timeoutMs: 30_000,
  maxRedirects: 5,
  maxChars: 100_000,
} as const;

export function webFetchSettingsOf(services: ToolServices): Required<WebFetchSettings> {
  const given = services.webFetch ?? {};
  return {
    allowHosts: given.allowHosts ?? [],
    maxBytes: given.maxBytes ?? WEB_FETCH_DEFAULTS.maxBytes,
    timeoutMs: given.timeoutMs ?? WEB_FETCH_DEFAULTS.timeoutMs,
    maxRedirects: given.maxRedirects ?? WEB_FETCH_DEFAULTS.maxRedirects,
    maxChars: given.maxChars ?? WEB_FETCH_DEFAULTS.maxChars,
  };
}

export function webSearcherOf(services: ToolServices): WebSearcher | undefined {
  return services.webSearcher;
}
