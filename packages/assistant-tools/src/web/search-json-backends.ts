import { fetchOrFail, SearchBackendError, statusError, type SearchBackend, type SearchResult } from './search-backend.js';

/** SearXNG's JSON API (`/search?format=json`); needs `format: json` enabled in its settings. */
export function searxngBackend(baseUrl: string): SearchBackend {
  return {
    name: 'searxng',
    async search({ query, max, signal }) {
      const url = new URL('search', baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
      url.search = new URLSearchParams({ q: query, format: 'json' }).toString();
      const response = await fetchOrFail('searxng', url.href, { signal, headers: { accept: 'application/json' } });
      if (response.status === 403) throw statusError('searxng', 403, ' — is the json format enabled in its settings.yml (search.formats)?');
      if (!response.ok) throw statusError('searxng', response.status);
      const body = (await readJson('searxng', response)) as { results?: Array<{ title?: string; url?: string; content?: string }> };
      return (body.results ?? []).slice(0, max).map((r) => result(r.title, r.url, r.content));
    },
  };
}

/** Brave Search API (key in `X-Subscription-Token`). */
export function braveBackend(apiKey: string, baseUrl = 'https://api.search.brave.com/res/v1/web/search'): SearchBackend {
  return {
    name: 'brave',
    async search({ query, max, signal }) {
      const url = new URL(baseUrl);
      url.search = new URLSearchParams({ q: query, count: String(max) }).toString();
      const response = await fetchOrFail('brave', url.href, { signal, headers: { accept: 'application/json', 'x-subscription-token': apiKey } });
      if (!response.ok) throw statusError('brave', response.status);
      const body = (await readJson('brave', response)) as { web?: { results?: Array<{ title?: string; url?: string; description?: string }> } };
      return (body.web?.results ?? []).slice(0, max).map((r) => result(r.title, r.url, r.description));
    },
  };
}

/** Tavily's search API (key as a bearer token). */
export function tavilyBackend(apiKey: string, baseUrl = 'https://api.tavily.com/search'): SearchBackend {
  return {
    name: 'tavily',
    async search({ query, max, signal }) {
      const response = await fetchOrFail('tavily', baseUrl, {
        method: 'POST',
        signal,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
        body: JSON.stringify({ query, max_results: max }),
      });
      if (!response.ok) throw statusError('tavily', response.status);
      const body = (await readJson('tavily', response)) as { results?: Array<{ title?: string; url?: string; content?: string }> };
      return (body.results ?? []).slice(0, max).map((r) => result(r.title, r.url, r.content));
    },
  };
}

async function readJson(backend: 'searxng' | 'brave' | 'tavily', response: Response): Promise<unknown> {
  try {
    return await response.json();
  } catch {
    throw new SearchBackendError(backend, 'failed', 'answered something that is not JSON');
  }
}

function result(title: string | undefined, url: string | undefined, snippet: string | undefined): SearchResult {
  return { title: (title ?? '').trim(), url: url ?? '', snippet: (snippet ?? '').replace(/\s+/g, ' ').trim() };
}
