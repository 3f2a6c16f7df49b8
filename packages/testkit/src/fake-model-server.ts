import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { anthropicErrorBody, anthropicJson, anthropicStreamEvents } from './anthropic-wire.js';
import { wireUsage, type FakeReply, type FakeReplyHandler, type FakeRequest, type FakeRouteHandler } from './fake-reply.js';
import { openaiErrorBody, openaiJson, openaiStreamEvents } from './openai-wire.js';
import { PromptCacheSim, type PromptCacheOptions } from './prompt-cache.js';
import { writeSse, type SseEvent } from './sse-writer.js';

export interface FakeModelServerOptions {
  /** Extra endpoints, keyed `'METHOD /path'`, e.g. `'GET /api/show'` for an Ollama probe. */
  routes?: Record<string, FakeRouteHandler>;
  /**
   * The prompt cache the server simulates in both wire formats (prompt-cache.ts): Anthropic's
   * `cache_control` breakpoints and OpenAI's automatic prefix cache, reported in each reply's
   * usage. Default: on, caching prompts of any length; `realisticPromptCache()` for the providers'
   * rules; `false` for none.
   */
  cache?: PromptCacheOptions | false;
}

export interface FakeModelServer {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  /** Base URL for the openai SDK (`url + '/v1'`). */
  readonly openaiBaseURL: string;
  /** Base URL for the @anthropic-ai/sdk client (`url`). */
  readonly anthropicBaseURL: string;
  /** Every request received, in arrival order. */
  readonly requests: FakeRequest[];
  /** Adds replies to the default queue. */
  enqueue(...replies: FakeReply[]): void;
  /** Adds replies for one model; they are used before the default queue. */
  script(model: string, ...replies: FakeReply[]): void;
  /** Computes replies once the queues are empty (e.g. a long benchmark). */
  setHandler(handler: FakeReplyHandler | undefined): void;
  /** Replies still queued (all models). */
  pending(): number;
  /** Forgets the simulated prompt cache (runs that must not read each other's prefixes). */
  clearCache(): void;
  close(): Promise<void>;
}

const CHAT_PATH = '/v1/chat/completions';
const MESSAGES_PATH = '/v1/messages';

/** Starts a scripted model server on 127.0.0.1 at a free port, speaking OpenAI and Anthropic formats. */
export async function startFakeModelServer(options: FakeModelServerOptions = {}): Promise<FakeModelServer> {
  const requests: FakeRequest[] = [];
  const defaultQueue: FakeReply[] = [];
  const modelQueues = new Map<string, FakeReply[]>();
  let handler: FakeReplyHandler | undefined;
  let closing = false;
  let seq = 0;
  const cache = options.cache === false ? undefined : new PromptCacheSim(options.cache);
  const timers = new Set<NodeJS.Timeout>();

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const t = setTimeout(() => {
        timers.delete(t);
        resolve();
      }, ms);
      timers.add(t);
    });

  async function nextReply(req: FakeRequest): Promise<FakeReply | undefined> {
    const perModel = req.model !== undefined ? modelQueues.get(req.model) : undefined;
    if (perModel && perModel.length > 0) return perModel.shift();
    if (defaultQueue.length > 0) return defaultQueue.shift();
    if (handler) return handler(req);
    return undefined;
  }

  async function serveModel(req: FakeRequest, res: ServerResponse, isGone: () => boolean): Promise<void> {
    const reply = await nextReply(req);
    const n = ++seq;
    if (!reply) {
      sendJson(res, 500, {
        error: {
          message: `fake model server: the script ran out (no reply queued for model ${req.model ?? '(none)'}, request ${requests.length})`,
          type: 'script_exhausted',
        },
      });
      return;
    }
    if (reply.delayMs) await sleep(reply.delayMs);
    if (reply.hang || isGone()) return; // left open; close() or the client's abort ends it
    const anthropic = req.format === 'anthropic';
    if (reply.status && reply.status >= 400) {
      const message = `fake ${reply.status} error`;
      const body = reply.errorBody ?? (anthropic ? anthropicErrorBody(reply.status, message) : openaiErrorBody(reply.status, message));
      sendJson(res, reply.status, body, reply.headers);
      return;
    }
    for (const [name, value] of Object.entries(reply.headers ?? {})) res.setHeader(name, value);
    const usage = wireUsage(req, reply, cache?.use(req));
    req.cache = { read: usage.cacheRead, write: usage.cacheWrite };
    req.usage = usage;
    if (!req.stream) {
      sendJson(res, 200, anthropic ? anthropicJson(req, reply, n, usage) : openaiJson(req, reply, n, usage));
      return;
    }
    const events: SseEvent[] = anthropic ? anthropicStreamEvents(req, reply, n, usage) : openaiStreamEvents(req, reply, n, usage).map((data) => ({ data }));
    await writeSse(res, events, {
      ...(reply.chunkDelayMs !== undefined ? { chunkDelayMs: reply.chunkDelayMs } : {}),
      ...(reply.cutAfterChunks !== undefined ? { cutAfterChunks: reply.cutAfterChunks } : {}),
      isGone,
      sleep,
    });
  }

  async function onRequest(incoming: IncomingMessage, res: ServerResponse): Promise<void> {
    let gone = false;
    res.on('close', () => {
      gone = true;
    });
    const isGone = () => gone || closing;
    const raw = await readBody(incoming);
    let body: any;
    try {
      body = raw.length > 0 ? JSON.parse(raw) : undefined;
    } catch {
      body = undefined;
    }
    const method = incoming.method ?? 'GET';
    const path = (incoming.url ?? '/').split('?')[0] ?? '/';
    const route = options.routes?.[`${method} ${path}`];
    const format = route ? 'route' : path === MESSAGES_PATH ? 'anthropic' : 'openai';
    const req: FakeRequest = {
      method,
      path,
      headers: { ...incoming.headers },
      body,
      rawBody: raw,
      model: typeof body?.model === 'string' ? body.model : undefined,
      format,
      stream: body?.stream === true,
    };
    requests.push(req);
    if (route) {
      const out = await route(req);
      sendJson(res, out.status ?? 200, out.json, out.headers);
      return;
    }
    if (method !== 'POST' || (path !== CHAT_PATH && path !== MESSAGES_PATH)) {
      sendJson(res, 404, { error: { message: `fake model server: no route for ${method} ${path}`, type: 'not_found' } });
      return;
    }
    if (body === undefined) {
      sendJson(res, 400, { error: { message: 'fake model server: the request body is not JSON', type: 'invalid_request_error' } });
      return;
    }
    await serveModel(req, res, isGone);
  }

  const server = createServer((incoming, res) => {
    onRequest(incoming, res).catch((err: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: { message: `fake model server failed: ${String(err)}`, type: 'fake_server_error' } });
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;

  return {
    url,
    openaiBaseURL: `${url}/v1`,
    anthropicBaseURL: url,
    requests,
    enqueue: (...replies) => void defaultQueue.push(...replies),
    script(model, ...replies) {
      const queue = modelQueues.get(model) ?? [];
      queue.push(...replies);
      modelQueues.set(model, queue);
    },
    setHandler(h) {
      handler = h;
    },
    pending: () => defaultQueue.length + [...modelQueues.values()].reduce((n, q) => n + q.length, 0),
    clearCache: () => cache?.clear(),
    async close() {
      closing = true;
      for (const t of timers) clearTimeout(t);
      timers.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.destroyed) return;
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}
