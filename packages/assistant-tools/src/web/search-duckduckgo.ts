import { htmlLibraries } from './html-libraries.js';
import { fetchOrFail, SearchBackendError, statusError, type SearchBackend, type SearchRequest, type SearchResult } from './search-backend.js';

const DEFAULT_URL = 'https://html.duckduckgo.com/html/';

/**
 * DuckDuckGo's HTML endpoint (no key). It answers a rate limit with HTTP 202 and a challenge
 * page instead of results; both that and a 429 are reported as `rate_limited`.
 */
export function duckDuckGoBackend(url = DEFAULT_URL): SearchBackend {
  return {
    name: 'duckduckgo',
    async search({ query, max, signal }: SearchRequest): Promise<SearchResult[]> {
      const response = await fetchOrFail('duckduckgo', url, {
        method: 'POST',
        signal,
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': 'Mozilla/5.0 (compatible; Tandem web_search)' },
        body: new URLSearchParams({ q: query }).toString(),
      });
      const html = await response.text();
      if (response.status === 202 || /anomaly-modal|challenge-form/.test(html)) {
        throw new SearchBackendError('duckduckgo', 'rate_limited', 'asked for a bot check (rate limited); try again later or configure another backend');
      }
      if (!response.ok) throw statusError('duckduckgo', response.status);
      return (await parseResults(html)).slice(0, max);
    },
  };
}

async function parseResults(html: string): Promise<SearchResult[]> {
  const { parseHTML } = await htmlLibraries();
  const { document } = parseHTML(html);
  const out: SearchResult[] = [];
  for (const result of document.querySelectorAll('.result')) {
    if (result.classList.contains('result--ad')) continue;
    const link = result.querySelector('a.result__a');
    const href = link?.getAttribute('href');
    if (!link || !href) continue;
    out.push({
      title: (link.textContent ?? '').trim(),
      url: targetOf(href),
      snippet: (result.querySelector('.result__snippet')?.textContent ?? '').replace(/\s+/g, ' ').trim(),
    });
  }
  return out;
}

/** DuckDuckGo wraps result links as `//duckduckgo.com/l/?uddg=<target>`; unwrap them. */
function targetOf(href: string): string {
  try {
    const url = new URL(href, 'https://duckduckgo.com');
    const target = url.searchParams.get('uddg');
    return target ?? url.href;
  } catch {
    return href;
  }
}
