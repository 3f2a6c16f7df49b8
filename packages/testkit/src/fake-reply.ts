/** What the fake model server answers to one request. Every field is optional. */
export interface FakeToolCall {
  /** Defaults to `call_<n>` (OpenAI) or `toolu_<n>` (Anthropic). */
  id?: string;
  name: string;
  /** An object is sent as JSON; a string is sent raw (it may be invalid JSON on purpose). */
  args: object | string;
}

export interface FakeReply {
  text?: string;
  /** The text split into these deltas; `text` defaults to their concatenation. */
  chunks?: string[];
  toolCalls?: FakeToolCall[];
  /** An HTTP error status; the body is `errorBody` or a format-appropriate error. */
  status?: number;
  errorBody?: object;
  /** Extra response headers, e.g. `{ 'retry-after': '2' }`. */
  headers?: Record<string, string>;
  /** Wait this long before answering. */
  delayMs?: number;
  /** Wait this long between streamed events. */
  chunkDelayMs?: number;
  /** Destroy the socket after this many SSE events (a stream cut mid-way). */
  cutAfterChunks?: number;
  /** Never answer; the request stays open until the client aborts or the server closes. */
  hang?: boolean;
  /**
   * Token counts to report instead of the estimate and the cache simulation. `input` counts every
   * prompt token, cached or not; `cacheRead` / `cacheWrite` (default 0) are the parts of it read
   * from and written to the cache. Scripted figures stand whole: a test that scripts them gets
   * them back whatever earlier requests left in the simulated cache.
   */
  usage?: { input: number; output: number; cacheRead?: number; cacheWrite?: number };
}

/** The usage a reply reports: every prompt token (`input`), and the parts of it read from and written to the cache. */
export interface WireUsage {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

/** One request the server received, as tests inspect it. */
export interface FakeRequest {
  method: string;
  /** Path without the query string, e.g. `/v1/chat/completions`. */
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** The parsed JSON body; `undefined` when the body was empty or not JSON. */
  body: any;
  /** The body exactly as received (UTF-8), for checks on bytes such as a stable prefix. */
  rawBody: string;
  /** `body.model` when present. */
  model: string | undefined;
  format: 'openai' | 'anthropic' | 'route';
  stream: boolean;
  /** What the reply reported as read from and written to the prompt cache (model requests only). */
  cache?: { read: number; write: number };
  /** The whole usage the reply reported (model requests only): every prompt token, the cache's parts, the output. */
  usage?: WireUsage;
}

export type FakeReplyHandler = (request: FakeRequest) => FakeReply | Promise<FakeReply>;

export interface FakeRouteResponse {
  status?: number;
  json: unknown;
  headers?: Record<string, string>;
}

export type FakeRouteHandler = (request: FakeRequest) => FakeRouteResponse | Promise<FakeRouteResponse>;

/** The reply's text as one string. */
export function replyText(reply: FakeReply): string {
  return reply.text ?? (reply.chunks ?? []).join('');
}

/** The reply's text as the deltas to stream. */
export function replyDeltas(reply: FakeReply): string[] {
  if (reply.chunks) return reply.chunks.filter((c) => c.length > 0);
  return reply.text ? [reply.text] : [];
}

export function rawArgs(call: FakeToolCall): string {
  return typeof call.args === 'string' ? call.args : JSON.stringify(call.args);
}

/** Splits raw argument text into a few pieces, the way providers stream them. */
export function splitArgs(raw: string): string[] {
  if (raw.length <= 4) return [raw];
  const third = Math.ceil(raw.length / 3);
  return [raw.slice(0, third), raw.slice(third, 2 * third), raw.slice(2 * third)].filter((p) => p.length > 0);
}

/** Rough usage when a script does not set one: about four characters per token. */
export function estimateUsage(request: FakeRequest, reply: FakeReply): { input: number; output: number } {
  if (reply.usage) return reply.usage;
  const input = Math.max(1, Math.ceil(JSON.stringify(request.body ?? {}).length / 4));
  const outChars = replyText(reply).length + (reply.toolCalls ?? []).reduce((n, c) => n + rawArgs(c).length + c.name.length, 0);
  return { input, output: Math.max(1, Math.ceil(outChars / 4)) };
}

/**
 * What a reply reports: the script's figures (its cache parts 0 unless scripted), else the
 * prompt's tokens as the cache simulation counted them (`countPrompt`) or the estimate, with
 * the cache's parts the simulation found (`cache`). The prompt total is never below its cached
 * parts.
 */
export function wireUsage(request: FakeRequest, reply: FakeReply, cache: { read: number; write: number; prompt?: number } = { read: 0, write: 0 }): WireUsage {
  const estimate = estimateUsage(request, reply);
  if (!reply.usage && cache.prompt !== undefined) estimate.input = cache.prompt;
  const cacheRead = reply.usage ? (reply.usage.cacheRead ?? 0) : cache.read;
  const cacheWrite = reply.usage ? (reply.usage.cacheWrite ?? 0) : cache.write;
  return { input: Math.max(estimate.input, cacheRead + cacheWrite), output: estimate.output, cacheRead, cacheWrite };
}
