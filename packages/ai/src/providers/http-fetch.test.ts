import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { lend } from './body-lease.js';
import { httpFetch } from './http-fetch.js';

let server: Server | undefined;

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

/** A loopback server answering with `handle`; resolves to its base URL. */
async function serve(handle: (req: IncomingMessage, res: ServerResponse, body: Buffer) => void): Promise<string> {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => handle(req, res, Buffer.concat(chunks)));
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const SDK_INIT = { redirect: 'error' } as const;

describe('httpFetch', () => {
  it('sends the method, headers and body bytes, and streams the answer with its status and headers', async () => {
    const seen: Array<{ method?: string; type?: string; length?: string; body: string }> = [];
    const base = await serve((req, res, body) => {
      seen.push({ method: req.method, type: req.headers['content-type'], length: req.headers['content-length'], body: body.toString() });
      res.writeHead(201, 'Made', [
        ['content-type', 'text/event-stream'],
        ['set-cookie', 'a=1'],
        ['set-cookie', 'b=2'],
      ]);
      res.write('data: one\n\n');
      res.end('data: two\n\n');
    });
    const bytes = new TextEncoder().encode('{"model":"é"}');
    const response = await httpFetch(`${base}/v1/chat`, { ...SDK_INIT, method: 'POST', headers: { 'Content-Type': 'application/json' }, body: bytes });
    expect(response.status).toBe(201);
    expect(response.statusText).toBe('Made');
    expect(response.ok).toBe(true);
    expect(response.url).toBe(`${base}/v1/chat`);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(response.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    expect(await response.text()).toBe('data: one\n\ndata: two\n\n');
    expect(seen).toEqual([{ method: 'POST', type: 'application/json', length: String(bytes.byteLength), body: '{"model":"é"}' }]);
  });

  it('sends a Headers object as given (both SDKs pass one), names lower-cased', async () => {
    const seen: Array<string | string[] | undefined> = [];
    const base = await serve((req, res) => {
      seen.push(req.headers['x-api-key'], req.headers['content-type'], req.headers.accept);
      res.end('ok');
    });
    const headers = new Headers({ 'X-Api-Key': 'k-1', 'Content-Type': 'application/json' });
    headers.append('Accept', 'text/event-stream');
    const response = await httpFetch(base, { ...SDK_INIT, method: 'POST', headers, body: '{}' });
    expect(await response.text()).toBe('ok');
    expect(seen).toEqual(['k-1', 'application/json', 'text/event-stream']);
  });

  it('delivers a large answer whole and in order while the reader lags behind', async () => {
    const chunk = (i: number) => Buffer.alloc(65_536, i % 251);
    const base = await serve((_req, res) => {
      res.writeHead(200);
      for (let i = 0; i < 32; i++) res.write(chunk(i));
      res.end();
    });
    const response = await httpFetch(base, { ...SDK_INIT, method: 'POST', body: 'x' });
    const reader = response.body!.getReader();
    const first = await reader.read(); // then let the rest pile up against the 64 KB mark
    await new Promise<void>((resolve) => setImmediate(resolve));
    const parts: Uint8Array[] = [first.value!];
    for (let next = await reader.read(); !next.done; next = await reader.read()) parts.push(next.value);
    expect(Buffer.concat(parts).equals(Buffer.concat(Array.from({ length: 32 }, (_, i) => chunk(i))))).toBe(true);
  });

  it('closes the connection when the reader cancels the body', async () => {
    let closed!: () => void;
    const connectionClosed = new Promise<void>((resolve) => (closed = resolve));
    const base = await serve((req, res) => {
      req.socket.once('close', () => closed());
      res.writeHead(200);
      res.write('data: first\n\n'); // and never ends
    });
    const response = await httpFetch(base, { ...SDK_INIT, method: 'POST', body: 'x' });
    const reader = response.body!.getReader();
    await reader.read();
    await reader.cancel();
    await connectionClosed;
  });

  it('keeps the connection for the next request', async () => {
    const sockets = new Set<unknown>();
    const base = await serve((req, res) => {
      sockets.add(req.socket);
      res.end('ok');
    });
    for (let i = 0; i < 3; i++) expect(await (await httpFetch(base, { ...SDK_INIT, method: 'POST', body: `call ${i}` })).text()).toBe('ok');
    expect(sockets.size).toBe(1);
  });

  it('rejects with the signal’s reason when aborted before the answer, and never answers', async () => {
    let arrived!: () => void;
    const requestArrived = new Promise<void>((resolve) => (arrived = resolve));
    const base = await serve(() => arrived()); // holds every request unanswered
    const controller = new AbortController();
    const pending = httpFetch(base, { ...SDK_INIT, method: 'POST', body: 'x', signal: controller.signal });
    await requestArrived;
    const reason = new DOMException('stop', 'AbortError');
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
    const already = new AbortController();
    already.abort(reason);
    await expect(httpFetch(base, { ...SDK_INIT, signal: already.signal })).rejects.toBe(reason);
  });

  it('fails the body with the signal’s reason when aborted mid-answer', async () => {
    const base = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: first\n\n'); // and never ends
    });
    const controller = new AbortController();
    const response = await httpFetch(base, { ...SDK_INIT, method: 'POST', body: 'x', signal: controller.signal });
    const reader = response.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('data: first\n\n');
    const reason = new DOMException('stop', 'AbortError');
    controller.abort(reason);
    await expect(reader.read()).rejects.toBe(reason);
  });

  it('refuses a redirect as undici does, without following it', async () => {
    let followed = 0;
    const base = await serve((req, res) => {
      if (req.url === '/moved') followed++;
      res.writeHead(307, { location: '/moved' }).end();
    });
    const error = await httpFetch(`${base}/v1`, { ...SDK_INIT, method: 'POST', body: 'x' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toBe('fetch failed');
    expect(((error as Error).cause as Error).message).toBe('unexpected redirect');
    expect(followed).toBe(0);
  });

  it('reports a refused connection as fetch does: a TypeError with the cause', async () => {
    const base = await serve((_req, res) => res.end());
    const closed = base;
    server!.close();
    server = undefined;
    const error = await httpFetch(closed, { ...SDK_INIT, method: 'POST', body: 'x' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect(((error as Error).cause as NodeJS.ErrnoException).code).toBe('ECONNREFUSED');
  });

  it('decodes a gzip answer and gives a 204 no body', async () => {
    const base = await serve((req, res) => {
      if (req.url === '/empty') return res.writeHead(204).end();
      res.writeHead(200, { 'content-encoding': 'gzip', 'content-type': 'application/json' }).end(gzipSync('{"ok":true}'));
    });
    expect(await (await httpFetch(`${base}/json`, SDK_INIT)).json()).toEqual({ ok: true });
    const empty = await httpFetch(`${base}/empty`, SDK_INIT);
    expect(empty.status).toBe(204);
    expect(empty.body).toBeNull();
  });

  it('fails as a fetch would on an answer a Response cannot hold (status 600), and the process lives on', async () => {
    const base = await serve((req) => {
      req.socket.end('HTTP/1.1 600 Strange\r\ncontent-length: 2\r\n\r\nno');
    });
    const error = await httpFetch(base, { ...SDK_INIT, method: 'POST', body: 'x' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toBe('fetch failed');
    expect((error as Error).cause).toBeInstanceOf(RangeError);
  });

  it('hands any other request to the global fetch unchanged (here: a redirect it follows)', async () => {
    const base = await serve((req, res) => {
      if (req.url === '/moved') return res.end('arrived');
      res.writeHead(302, { location: '/moved' }).end();
    });
    const response = await httpFetch(`${base}/start`);
    expect(response.redirected).toBe(true);
    expect(await response.text()).toBe('arrived');
  });

  it('holds a lent body while the socket still sends it, even after the answer came, and lets go once all is sent', async () => {
    // More than loopback's socket buffers take, so the socket still sends it when the answer comes.
    const body = Buffer.alloc(64 * 1024 * 1024, 'b');
    let freed!: () => void;
    const allSent = new Promise<void>((resolve) => (freed = resolve));
    const lease = lend(body, () => freed());
    let readRest!: () => void;
    let received = 0;
    server = createServer((req, res) => {
      // Answers at once, reading the body only when told.
      res.writeHead(413, { 'content-type': 'text/plain' });
      res.write('too large');
      readRest = () => {
        req.on('data', (chunk: Buffer) => (received += chunk.length));
        req.on('end', () => res.end());
      };
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const response = await httpFetch(base, { ...SDK_INIT, method: 'POST', body });
    expect(response.status).toBe(413);
    lease.done();
    expect(lease.free).toBe(false);
    readRest();
    await allSent;
    // The server ends its answer once it has read the whole body.
    expect(await response.text()).toBe('too large');
    expect(received).toBe(body.byteLength);
  });

  it('pins a lent body it hands to the global fetch (which never says when it is done with it)', async () => {
    const base = await serve((_req, res, got) => res.end(String(got.byteLength)));
    const body = Buffer.alloc(32, 'p');
    const lease = lend(body, () => undefined);
    const response = await httpFetch(base, { method: 'POST', body, redirect: 'follow' });
    expect(await response.text()).toBe('32');
    lease.done();
    expect(lease.free).toBe(false);
  });
});
