import http from 'node:http';
import https from 'node:https';
import type { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { leaseOf } from './body-lease.js';

/**
 * The `fetch` both provider SDKs are given: one HTTP/1.1 request on node:http(s) with
 * keep-alive, answered with a standard `Response` whose body streams the socket's chunks.
 *
 * Node 20's own `fetch` (undici) keeps every request's objects alive past the young
 * generation: its Request and Response are tracked by FinalizationRegistry, which V8 only
 * clears in a full GC, so each request's whole graph (streams, headers, controllers, closures)
 * lands in old space — ~30 KB per streamed reply, measured with V8's sampling heap profiler,
 * against ~1.5 KB here — and it runs WHATWG streams from the socket up. A model request is
 * the one call a session makes at every step, so both show up there: old space growing with
 * the session until the next full GC, and undici as the largest CPU entry of a step.
 *
 * What the SDKs ask of it is the common case: a URL string, a method, headers, a body of
 * bytes or a string, a signal, and `redirect: 'error'` (adapter-options.ts). Anything else is
 * handed to the global `fetch` unchanged.
 */
export const httpFetch: typeof fetch = (input, init) => {
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : undefined;
  const body = init?.body;
  const plainBody = body === undefined || body === null || typeof body === 'string' || body instanceof Uint8Array || body instanceof ArrayBuffer;
  if (url === undefined || init?.redirect !== 'error' || !plainBody || !/^https?:/i.test(url)) {
    // The global fetch never says when it stops reading a body: a lent one is never reused (body-lease.ts).
    if (body instanceof Uint8Array) leaseOf(body)?.pin();
    return fetch(input, init);
  }
  return request(new URL(url), init, body);
};

const agents = {
  'http:': new http.Agent({ keepAlive: true }),
  'https:': new https.Agent({ keepAlive: true }),
};

/** Statuses whose response has no body (the Response constructor refuses one). */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

function request(url: URL, init: RequestInit, body: string | Uint8Array | ArrayBuffer | null | undefined): Promise<Response> {
  const signal = init.signal ?? undefined;
  if (signal?.aborted) return Promise.reject(signal.reason);
  const bytes = body instanceof ArrayBuffer ? new Uint8Array(body) : body;
  const headers = headerRecord(init.headers);
  if (bytes !== undefined && bytes !== null && headers['content-length'] === undefined) headers['content-length'] = String(Buffer.byteLength(bytes));
  const transport = url.protocol === 'https:' ? https : http;
  return new Promise<Response>((resolve, reject) => {
    const req = transport.request(url, { method: init.method ?? 'GET', headers, agent: agents[url.protocol as 'http:' | 'https:'] });
    if (bytes instanceof Uint8Array) holdWhileSending(req, bytes);
    let settled = false;
    let received: http.IncomingMessage | undefined;
    // Before the answer the promise rejects with the signal's reason; after it, the body does.
    const onAbort = () => {
      const reason = signal?.reason;
      if (received) received.destroy(reason);
      else req.destroy(reason);
      if (!settled) {
        settled = true;
        reject(reason);
      }
    };
    const done = () => signal?.removeEventListener('abort', onAbort);
    signal?.addEventListener('abort', onAbort, { once: true });
    req.on('error', (error) => {
      done();
      if (settled) return;
      settled = true;
      // As undici's fetch: a TypeError whose cause says what failed (the SDKs wrap it as a connection error).
      reject(new TypeError('fetch failed', { cause: error }));
    });
    req.once('response', (res) => {
      settled = true;
      received = res;
      const status = res.statusCode ?? 0;
      if (status >= 300 && status < 400 && res.headers.location !== undefined) {
        res.resume();
        done();
        // Worded as undici words the refusal, which classify-error.ts recognises.
        reject(new TypeError('fetch failed', { cause: new TypeError('unexpected redirect') }));
        return;
      }
      res.once('close', done);
      try {
        resolve(toResponse(res, status, url, init.method === 'HEAD'));
      } catch (error) {
        // An answer `Response` cannot hold (a status outside 200-599, a header it refuses) is a failed fetch, as in undici.
        res.destroy();
        reject(new TypeError('fetch failed', { cause: error }));
      }
    });
    req.end(bytes ?? undefined);
  });
}

/**
 * A lent body (body-lease.ts) is held until every byte of it is handed to the kernel, or the
 * connection is gone. Not when the answer ends: a server may answer before it has read the
 * whole body, and the socket goes on sending it from this memory.
 */
function holdWhileSending(req: http.ClientRequest, bytes: Uint8Array): void {
  const release = leaseOf(bytes)?.hold();
  if (!release) return;
  req.once('finish', release);
  req.once('close', () => {
    if (req.writableFinished || !req.socket || req.socket.destroyed) release();
    else req.socket.once('close', release);
  });
}

function toResponse(res: http.IncomingMessage, status: number, url: URL, head: boolean): Response {
  const headers = new Headers();
  for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) headers.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
  const stream = NULL_BODY.has(status) || head ? null : webStream(decoded(res, res.headers['content-encoding']));
  const response = new Response(stream, { status, statusText: res.statusMessage ?? '', headers });
  if (stream === null) res.resume();
  Object.defineProperty(response, 'url', { value: url.href });
  return response;
}

/**
 * The body as a web stream, chunk by chunk as the socket gives them, paused while more than
 * 64 KB wait for the reader. (`Readable.toWeb` does the same but copies every chunk; it was ~0.2 ms of a step.)
 */
function webStream(body: Readable): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        body.on('data', (chunk: Buffer) => {
          controller.enqueue(chunk);
          if ((controller.desiredSize ?? 0) <= 0) body.pause();
        });
        body.once('end', () => controller.close());
        body.once('error', (error) => controller.error(error));
      },
      pull() {
        body.resume();
      },
      cancel() {
        body.destroy();
      },
    },
    new ByteLengthQueuingStrategy({ highWaterMark: 65_536 }),
  );
}

/** The body as sent, or decompressed as `fetch` does for the encodings it asks for. */
function decoded(res: http.IncomingMessage, encoding: string | undefined): Readable {
  const decoder =
    encoding === 'gzip' || encoding === 'x-gzip'
      ? zlib.createGunzip()
      : encoding === 'deflate'
        ? zlib.createInflate()
        : encoding === 'br'
          ? zlib.createBrotliDecompress()
          : undefined;
  if (!decoder) return res;
  res.on('error', (error) => decoder.destroy(error));
  return res.pipe(decoder);
}

/** The request's headers by lower-case name (as `Headers` gives them). */
function headerRecord(init: ConstructorParameters<typeof Headers>[0]): Record<string, string> {
  const out: Record<string, string> = {};
  if (init === undefined) return out;
  // Both SDKs pass a Headers already: read it as it is rather than copy it into another.
  (init instanceof Headers ? init : new Headers(init)).forEach((value, name) => {
    out[name] = value;
  });
  return out;
}
