import { readFile, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The web viewer's static files (packages/web, built by Vite) on the server's own port: `/` is
 * the page, `/assets/NAME` its hashed scripts and styles. The page holds no data: it asks for a
 * token and talks socket.io like the TUI, so the socket's auth is the only gate. Every answer
 * carries a strict Content-Security-Policy (no inline script or style, connections only to this
 * origin), nosniff and no framing.
 */

/** The policy of every answer; 'self' in connect-src also covers this origin's ws:// (CSP 3). */
export const WEB_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const SECURITY_HEADERS = {
  'content-security-policy': WEB_CSP,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
} as const;

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};

/** An asset name as Vite writes them (`index-AbC123.js`): no slashes, no dot-dot. */
const ASSET = /^\/assets\/([A-Za-z0-9_-][A-Za-z0-9_.-]*)$/;

/** Where the built page is: `TANDEM_WEB_DIR`, else packages/web/dist beside this package. */
export function webViewerDir(env: NodeJS.ProcessEnv = process.env): string {
  const override = env.TANDEM_WEB_DIR;
  if (override) return override;
  // src/web/serve-web.ts and dist/web/serve-web.js sit at the same depth in packages/server.
  return fileURLToPath(new URL('../../../web/dist/', import.meta.url));
}

/**
 * Answers the request if it is the viewer's (GET or HEAD of `/`, `/index.html`, `/favicon.svg`, `/assets/…`)
 * and returns true; returns false for anything else, which the caller answers itself.
 */
export function serveWebViewer(req: IncomingMessage, res: ServerResponse, env: NodeJS.ProcessEnv = process.env): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  const path = (req.url ?? '/').split('?')[0] ?? '/';
  const dir = webViewerDir(env);
  if (path === '/' || path === '/index.html') {
    void sendFile(res, req.method, join(dir, 'index.html'), 'no-cache', () => notBuilt(res, dir));
    return true;
  }
  if (path === '/favicon.svg') {
    void sendFile(res, req.method, join(dir, 'favicon.svg'), 'public, max-age=86400', () => notFound(res));
    return true;
  }
  const asset = ASSET.exec(path);
  if (!asset?.[1]) return false;
  void sendFile(res, req.method, join(dir, 'assets', asset[1]), 'public, max-age=31536000, immutable', () => notFound(res));
  return true;
}

async function sendFile(res: ServerResponse, method: string, file: string, cache: string, missing: () => void): Promise<void> {
  try {
    const info = await stat(file);
    if (!info.isFile()) return missing();
    const body = await readFile(file);
    res.writeHead(200, {
      ...SECURITY_HEADERS,
      'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
      'content-length': body.length,
      'cache-control': cache,
    });
    res.end(method === 'HEAD' ? undefined : body);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return missing();
    if (!res.headersSent) res.writeHead(500, { ...SECURITY_HEADERS, 'content-type': 'text/plain; charset=utf-8' });
    res.end(`tandem web viewer: could not read ${file}: ${(err as Error).message}\n`);
  }
}

function notBuilt(res: ServerResponse, dir: string): void {
  res.writeHead(503, { ...SECURITY_HEADERS, 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-cache' });
  res.end(
    `tandem web viewer: the page is not built (no index.html in ${dir}).\n` +
      'Build it in the tandem repository with `pnpm build` (or `pnpm -F @tandem/web build`), then reload this page.\n' +
      'The socket.io server on this port works without it (tandem attach).\n',
  );
}

function notFound(res: ServerResponse): void {
  res.writeHead(404, { ...SECURITY_HEADERS, 'content-type': 'text/plain; charset=utf-8' });
  res.end('tandem web viewer: no such file\n');
}
