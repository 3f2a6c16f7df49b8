import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeHarness, type Harness } from '@tandem/coding-tools/testing/tool-harness';
import { isPublicAddress } from './address-policy.js';
import { webFetchTool } from './web-fetch.js';
import { html, startWebServer, type WebTestServer } from './web-test-server.test-helper.js';

const article = `<!doctype html><html><head><title>Release notes 4.2</title></head><body>
<nav><a href="/">Home</a> | <a href="/blog">Blog</a></nav>
<article><h1>Release notes 4.2</h1>
<p>Version 4.2 adds streaming tool calls to the client. ${'It also fixes a long list of bugs reported by users over the last months. '.repeat(8)}</p>
<p>See <a href="/docs/streaming">the streaming guide</a> for details.</p>
<ul><li>faster start</li><li>smaller bundle</li></ul>
</article>
<footer>© 2026 Example</footer><script>track()</script></body></html>`;

const shell = `<!doctype html><html><head><title>App</title><script src="/app.js"></script></head><body><div id="root"></div><noscript>You need to enable JavaScript to run this app.</noscript></body></html>`;

let server: WebTestServer;
let other: WebTestServer;
let h: Harness;

beforeAll(async () => {
  other = await startWebServer({ '/secret': html('<html><body><p>internal admin page</p></body></html>') });
  server = await startWebServer({
    '/article': html(article),
    '/shell': html(shell),
    '/big': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const line = `${'x'.repeat(1023)}\n`;
      for (let i = 0; i < 10 * 1024; i++) res.write(line);
      res.end();
    },
    '/gzip': (_req, res) => res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' }).end(gzipSync('hello compressed world')),
    '/loop': (_req, res) => res.writeHead(302, { location: '/loop' }).end(),
    '/hop': (_req, res) => res.writeHead(301, { location: '/article' }).end(),
    '/to-private': (_req, res) => res.writeHead(302, { location: `http://localhost:${other.port}/secret` }).end(),
    '/image': (_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.from([137, 80, 78, 71])),
    '/gone': html('<html><body>gone</body></html>', 404),
  });
  h = await makeHarness();
});

afterAll(async () => {
  await server.close();
  await other.close();
  await h.cleanup();
});

const allow = (hosts: string[]) => ({ services: { webFetch: { allowHosts: hosts } } });

describe('web_fetch', () => {
  it('returns an article as markdown without the page chrome, links made absolute', async () => {
    const r = await h.run(webFetchTool, { url: `${server.url}/article` }, allow(['127.0.0.1']));
    expect(r.isError).toBe(false);
    expect(r.output).toContain('Title: Release notes 4.2');
    expect(r.output).toContain('Version 4.2 adds streaming tool calls');
    expect(r.output).toContain(`[the streaming guide](${server.url}/docs/streaming)`);
    expect(r.output).toMatch(/^-\s+faster start$/m);
    expect(r.output).not.toContain('track()');
    expect(r.output).not.toContain('script-only');
  });

  it('gives plain text or the raw html on request', async () => {
    const text = await h.run(webFetchTool, { url: `${server.url}/article`, format: 'text' }, allow(['127.0.0.1']));
    expect(text.output).toContain('Version 4.2 adds streaming tool calls');
    expect(text.output).not.toContain('](');
    const raw = await h.run(webFetchTool, { url: `${server.url}/article`, format: 'html' }, allow(['127.0.0.1']));
    expect(raw.output).toContain('<script>track()</script>');
  });

  it('says plainly when a page is a script-only shell', async () => {
    const r = await h.run(webFetchTool, { url: `${server.url}/shell` }, allow(['127.0.0.1']));
    expect(r.isError).toBe(false);
    expect(r.output).toContain('script-only shell');
  });

  it('reads at most 5 MB of a 10 MB page and says it was cut', async () => {
    const r = await h.run(webFetchTool, { url: `${server.url}/big` }, { services: { webFetch: { allowHosts: ['127.0.0.1'], maxChars: 1000 } } });
    expect(r.isError).toBe(false);
    expect(r.output).toContain(`${5 * 1024 * 1024} bytes`);
    expect(r.output).toContain('larger than 5 MB; only its first 5 MB were read');
    expect(r.output).toContain('the first 1000 are shown');
  });

  it('decompresses gzip and follows a redirect, naming the final address', async () => {
    expect((await h.run(webFetchTool, { url: `${server.url}/gzip` }, allow(['127.0.0.1']))).output).toContain('hello compressed world');
    const r = await h.run(webFetchTool, { url: `${server.url}/hop` }, allow(['127.0.0.1']));
    expect(r.output).toContain(`${server.url}/article (after 1 redirect): 200`);
  });

  it('stops a redirect loop with a clear error', async () => {
    const r = await h.run(webFetchTool, { url: `${server.url}/loop` }, allow(['127.0.0.1']));
    expect(r.isError).toBe(true);
    expect(r.output).toContain('too many redirects (more than 5)');
  });

  it('refuses loopback and private targets unless the host is allowed, also after a redirect', async () => {
    const direct = await h.run(webFetchTool, { url: `${server.url}/article` });
    expect(direct.isError).toBe(true);
    expect(direct.output).toContain('loopback, private or link-local');
    expect(direct.output).toContain('webFetch.allowHosts');
    const byName = await h.run(webFetchTool, { url: `http://localhost:${other.port}/secret` });
    expect(byName.isError).toBe(true);
    const redirected = await h.run(webFetchTool, { url: `${server.url}/to-private` }, allow(['127.0.0.1']));
    expect(redirected.isError).toBe(true);
    expect(redirected.output).toContain('localhost resolves to');
    expect(other.requests).toEqual([]);
  });

  it('refuses other schemes, binary content and error statuses with a reason', async () => {
    expect((await h.run(webFetchTool, { url: 'file:///etc/passwd' })).output).toContain('http:// and https:// pages only');
    expect((await h.run(webFetchTool, { url: 'not a url' })).output).toContain('is not a valid URL');
    expect((await h.run(webFetchTool, { url: `${server.url}/image` }, allow(['127.0.0.1']))).output).toContain('image/png is not text');
    expect((await h.run(webFetchTool, { url: `${server.url}/gone` }, allow(['127.0.0.1']))).output).toContain('answered 404');
  });
});

describe('isPublicAddress', () => {
  it('tells the public internet from loopback, private, link-local and mapped addresses', () => {
    for (const a of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      'fe80::1',
      'fd00::1',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
    ]) {
      expect(isPublicAddress(a), a).toBe(false);
    }
    for (const a of ['93.184.216.34', '8.8.8.8', '2606:4700::1111', '::ffff:8.8.8.8']) expect(isPublicAddress(a), a).toBe(true);
  });
});
