import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeHarness, type Harness } from '@tandem/coding-tools/testing/tool-harness';
import { searchBackendConfigs } from './search-config.js';
import { webSearchTool } from './web-search.js';
import { createWebSearcher } from './web-searcher.js';
import { html, json, startWebServer, type WebTestServer } from './web-test-server.test-helper.js';

const ddgPage = `<html><body><div class="results">
<div class="result results_links result--ad"><a class="result__a" href="https://ads.example/">Sponsored</a></div>
<div class="result results_links"><h2><a class="result__a" href="//duckduckgo.com/l/?uddg=https%3A%2F%2Fnodejs.org%2Fen%2Fblog%2Frelease%2Fv20.20.0&amp;rut=x">Node.js v20.20.0 <b>release</b></a></h2>
<a class="result__snippet" href="#">Node.js 20.20.0 is a security   release.</a></div>
<div class="result results_links"><a class="result__a" href="https://github.com/nodejs/node/releases">Releases · nodejs/node</a>
<div class="result__snippet">All releases.</div></div>
</div></body></html>`;
const ddgChallenge = '<html><body><div class="anomaly-modal">Unfortunately, bots use DuckDuckGo too.</div></body></html>';

let ddg: WebTestServer;
let ddgLimited: WebTestServer;
let searx: WebTestServer;
let brave: WebTestServer;
let limited: WebTestServer;
let h: Harness;

beforeAll(async () => {
  ddg = await startWebServer({ '/html/': html(ddgPage) });
  ddgLimited = await startWebServer({ '/html/': html(ddgChallenge, 202) });
  searx = await startWebServer({
    '/search': json({ results: [{ title: 'SearXNG hit', url: 'https://searx.example/a', content: 'from searxng' }] }),
  });
  brave = await startWebServer({
    '/res/v1/web/search': (req, res) => {
      const ok = req.headers['x-subscription-token'] === 'brave-key';
      res.writeHead(ok ? 200 : 401, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify(ok ? { web: { results: [{ title: 'Brave hit', url: 'https://brave.example/b', description: 'from brave' }] } } : { error: 'bad key' }),
      );
    },
  });
  limited = await startWebServer({ '/search': json({ error: 'slow down' }, 429) });
  h = await makeHarness();
});

afterAll(async () => {
  await Promise.all([ddg, ddgLimited, searx, brave, limited].map((s) => s.close()));
  await h.cleanup();
});

const run = (searcher: ReturnType<typeof createWebSearcher>, args: unknown) => h.run(webSearchTool, args, { services: { webSearcher: searcher } });

describe('web_search', () => {
  it('reads DuckDuckGo HTML results: titles, unwrapped URLs, snippets, no ads', async () => {
    const searcher = createWebSearcher([{ backend: 'duckduckgo', url: `${ddg.url}/html/` }], { env: {} });
    const r = await run(searcher, { query: 'node 20 release', max_results: 5 });
    expect(r.isError).toBe(false);
    expect(r.output).toContain('2 results from duckduckgo for "node 20 release"');
    expect(r.output).toContain('1. Node.js v20.20.0 release\n   https://nodejs.org/en/blog/release/v20.20.0\n   Node.js 20.20.0 is a security release.');
    expect(r.output).toContain('2. Releases · nodejs/node');
    expect(r.output).not.toContain('Sponsored');
    expect(ddg.requests).toEqual(['POST /html/']);
  });

  it('reads SearXNG and Brave JSON, with the key from the named variable', async () => {
    const s1 = createWebSearcher([{ backend: 'searxng', url: searx.url }], { env: {} });
    expect((await run(s1, { query: 'x' })).output).toContain('1. SearXNG hit\n   https://searx.example/a\n   from searxng');
    expect(searx.requests[0]).toBe('GET /search?q=x&format=json');
    const s2 = createWebSearcher([{ backend: 'brave', url: `${brave.url}/res/v1/web/search`, apiKeyEnv: 'MY_BRAVE' }], { env: { MY_BRAVE: 'brave-key' } });
    expect((await run(s2, { query: 'y', max_results: 3 })).output).toContain('1. Brave hit\n   https://brave.example/b\n   from brave');
  });

  it('says a backend is rate limited and answers from the next one', async () => {
    const searcher = createWebSearcher(
      [
        { backend: 'duckduckgo', url: `${ddgLimited.url}/html/` },
        { backend: 'searxng', url: limited.url },
        { backend: 'brave', apiKeyEnv: 'NO_SUCH_KEY' },
        { backend: 'searxng', url: searx.url },
      ],
      { env: {} },
    );
    const r = await run(searcher, { query: 'fallback' });
    expect(r.isError).toBe(false);
    expect(r.output).toContain('1 result from searxng');
    expect(r.output).toContain('Note: duckduckgo: asked for a bot check (rate limited)');
    expect(r.output).toContain('Note: searxng: rate limited (HTTP 429)');
    expect(r.output).toContain('Note: brave: no key (set NO_SUCH_KEY)');
  });

  it('fails with what each backend did when none can answer', async () => {
    const searcher = createWebSearcher(
      [
        { backend: 'searxng', url: limited.url },
        { backend: 'brave', url: `${brave.url}/res/v1/web/search` },
      ],
      { env: { BRAVE_API_KEY: 'wrong' } },
    );
    const r = await run(searcher, { query: 'nothing' });
    expect(r.isError).toBe(true);
    expect(r.output).toBe('web search failed: searxng: rate limited (HTTP 429); try again later; brave: refused (HTTP 401)');
  });

  it('answers a repeated query from its cache until the entry is old', async () => {
    let now = 1_000;
    const searcher = createWebSearcher([{ backend: 'searxng', url: searx.url }], { env: {}, now: () => now, cacheTtlMs: 60_000 });
    const before = searx.requests.length;
    await run(searcher, { query: 'Cache me' });
    const again = await run(searcher, { query: 'cache me ' });
    expect(again.output).toContain('(cached)');
    expect(searx.requests.length).toBe(before + 1);
    now += 60_000;
    expect((await run(searcher, { query: 'cache me' })).output).not.toContain('(cached)');
    expect(searx.requests.length).toBe(before + 2);
  });
});

describe('search backend configuration', () => {
  it('defaults to DuckDuckGo, takes config.json webSearch, and TANDEM_WEB_SEARCH wins', () => {
    expect(searchBackendConfigs(undefined, {})).toEqual([{ backend: 'duckduckgo' }]);
    expect(searchBackendConfigs({ backend: 'brave', apiKeyEnv: 'K' }, {})).toEqual([{ backend: 'brave', apiKeyEnv: 'K' }]);
    expect(searchBackendConfigs([{ backend: 'searxng', url: 'http://127.0.0.1:8888' }, { backend: 'duckduckgo' }], {})).toHaveLength(2);
    expect(searchBackendConfigs({ backend: 'brave' }, { TANDEM_WEB_SEARCH: 'searxng:http://127.0.0.1:8888' })).toEqual([
      { backend: 'searxng', url: 'http://127.0.0.1:8888' },
    ]);
  });

  it('refuses an unknown backend or a bad setting with a sentence naming it', () => {
    expect(() => searchBackendConfigs(undefined, { TANDEM_WEB_SEARCH: 'bing' })).toThrow('unknown backend "bing"');
    expect(() => searchBackendConfigs({ backend: 'searxng', url: 'nope' }, {})).toThrow('config.json webSearch is not valid: url');
  });
});
