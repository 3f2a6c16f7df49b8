import { mkdtempSync } from 'node:fs';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildPage, type BuiltPage } from './page-build.js';
import { type ServerBed, sessionOptions, startServerBed, TOKENS, TuiSide } from './server-bed.js';

/** The page as files and HTTP answers: what it bundles, the headers it is served with. */
let built: BuiltPage;
let bed: ServerBed | undefined;

beforeAll(async () => {
  built = await buildPage();
}, 120_000);

afterEach(async () => {
  await bed?.stop();
  bed = undefined;
});

describe('the web viewer page', () => {
  it('bundles the TUI reducer itself and nothing of blessed or node', () => {
    const ids = built.moduleIds.map((id) => id.replaceAll('\\', '/'));
    expect(ids.some((id) => id.endsWith('packages/tui/src/state/reducer.ts'))).toBe(true);
    expect(ids.filter((id) => /blessed|\/packages\/(core|server)\/|^node:|^\0?(fs|path|child_process|net|tty)$/.test(id))).toEqual([]);
  });

  it('is served at / with a strict Content-Security-Policy, nosniff, and no data in it', async () => {
    bed = await startServerBed(built.dir);
    const side = new TuiSide(bed.url, 'ana');
    await side.client.ready();
    await side.client.request('session:create', sessionOptions(bed, 'secret-session-title'));
    side.close();

    const res = await fetch(`${bed.url}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const csp = (res.headers.get('content-security-policy') ?? '').split(';').map((part) => part.trim());
    for (const directive of [
      "default-src 'self'",
      "script-src 'self'",
      "style-src 'self'",
      "connect-src 'self'",
      "object-src 'none'",
      "base-uri 'none'",
      "frame-ancestors 'none'",
    ]) {
      expect(csp).toContain(directive);
    }
    expect(csp.join(';')).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
    const html = await res.text();
    expect(html).not.toContain('secret-session-title');
    expect(html).not.toContain(TOKENS.view);
    // No inline script or style: every script is a file of this origin.
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).not.toMatch(/<style|\sstyle=/);
    const script = /<script[^>]*src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    const asset = await fetch(`${bed.url}${script}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(asset.headers.get('content-security-policy')).toBe(res.headers.get('content-security-policy'));
    expect((await asset.text()).includes(TOKENS.control)).toBe(false);
  });

  it('serves nothing outside its files, and the socket still refuses a missing token', async () => {
    bed = await startServerBed(built.dir);
    // Sent as written (fetch would normalise the dots away before they reach the server).
    for (const path of [
      '/assets/../../package.json',
      '/assets/..%2f..%2fpackage.json',
      '/assets/%2e%2e/index.html',
      '/package.json',
      '/assets/',
      '/src/main.ts',
    ]) {
      expect(await rawStatus(bed.url, path), path).toBe(404);
    }
    const post = await fetch(`${bed.url}/`, { method: 'POST' });
    expect(post.status).toBe(404);
    const side = new TuiSide(bed.url, 'nobody', '');
    await expect(side.client.ready(5_000)).rejects.toThrow(/unauthorized/);
    side.close();
  });

  it('says how to build the page when it is not built, instead of failing', async () => {
    bed = await startServerBed(mkdtempSync(join(tmpdir(), 'tandem-web-empty-')));
    const res = await fetch(`${bed.url}/`);
    expect(res.status).toBe(503);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await res.text()).toMatch(/not built[\s\S]*pnpm build/);
  });
});

function rawStatus(url: string, path: string): Promise<number> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    get({ hostname, port, path }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    }).on('error', reject);
  });
}
