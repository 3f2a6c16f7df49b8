/**
 * Asks a local model server how large its context window really is: Ollama's POST /api/show
 * (the `num_ctx` parameter when the model sets one, else `model_info["<arch>.context_length"]`),
 * llama.cpp's GET /props (`default_generation_settings.n_ctx`). A short timeout keeps a dead
 * server from holding up a turn; answers are cached per server and model, failures are not.
 */
export type LocalServerKind = 'ollama' | 'llamacpp';

export const DISCOVERY_TIMEOUT_MS = 1500;

const cache = new Map<string, Promise<number | undefined>>();

/** The server root, without the `/v1` the OpenAI-compatible API lives under. */
function serverRoot(baseURL: string): string {
  return baseURL.replace(/\/+$/, '').replace(/\/v1$/, '');
}

function positiveInt(value: unknown): number | undefined {
  const n = typeof value === 'string' ? Number(value) : value;
  return typeof n === 'number' && Number.isInteger(n) && n > 0 ? n : undefined;
}

export function ollamaContextFromShow(body: unknown): number | undefined {
  if (!body || typeof body !== 'object') return undefined;
  const show = body as { parameters?: unknown; model_info?: Record<string, unknown> };
  if (typeof show.parameters === 'string') {
    const match = /^\s*num_ctx\s+(\d+)\s*$/m.exec(show.parameters);
    const numCtx = positiveInt(match?.[1]);
    if (numCtx) return numCtx;
  }
  const info = show.model_info;
  if (!info || typeof info !== 'object') return undefined;
  const arch = info['general.architecture'];
  if (typeof arch === 'string') {
    const n = positiveInt(info[`${arch}.context_length`]);
    if (n) return n;
  }
  const key = Object.keys(info).find((k) => k.endsWith('.context_length'));
  return key ? positiveInt(info[key]) : undefined;
}

export function llamacppContextFromProps(body: unknown): number | undefined {
  if (!body || typeof body !== 'object') return undefined;
  const props = body as { default_generation_settings?: { n_ctx?: unknown }; n_ctx?: unknown };
  return positiveInt(props.default_generation_settings?.n_ctx) ?? positiveInt(props.n_ctx);
}

async function ask(kind: LocalServerKind, baseURL: string, model: string, timeoutMs: number): Promise<number | undefined> {
  const root = serverRoot(baseURL);
  const signal = AbortSignal.timeout(timeoutMs);
  const res =
    kind === 'ollama'
      ? await fetch(`${root}/api/show`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ model }),
          signal,
        })
      : await fetch(`${root}/props`, { signal });
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  const body: unknown = await res.json();
  const n = kind === 'ollama' ? ollamaContextFromShow(body) : llamacppContextFromProps(body);
  if (n === undefined) throw new Error('no context size in the answer');
  return n;
}

/** The server's context window for `model`, or undefined when it cannot tell (never throws). */
export function discoverContextWindow(kind: LocalServerKind, baseURL: string, model: string, timeoutMs = DISCOVERY_TIMEOUT_MS): Promise<number | undefined> {
  const key = `${kind} ${serverRoot(baseURL)} ${kind === 'ollama' ? model : ''}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const pending = ask(kind, baseURL, model, timeoutMs).catch(() => {
    cache.delete(key);
    return undefined;
  });
  cache.set(key, pending);
  return pending;
}

/** Forgets discovered windows (a test, or a server restarted with a new size). */
export function clearContextWindowCache(): void {
  cache.clear();
}
