import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeModelServer, type FakeModelServer } from '@tandem/testkit';
import { clearContextWindowCache, discoverContextWindow, ollamaContextFromShow } from './local-context.js';
import { resolveModelInfo } from './resolve.js';

let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  clearContextWindowCache();
});

describe('local model servers: context window discovery', () => {
  it("reads Ollama's /api/show: num_ctx when the model sets it, else <arch>.context_length", async () => {
    let asked: unknown;
    server = await startFakeModelServer({
      routes: {
        'POST /api/show': (req) => {
          asked = req.body;
          return req.body?.model === 'tuned'
            ? { json: { parameters: 'temperature 0.7\nnum_ctx 16384', model_info: { 'general.architecture': 'qwen2', 'qwen2.context_length': 32768 } } }
            : { json: { model_info: { 'general.architecture': 'llama', 'llama.context_length': 131072 } } };
        },
      },
    });
    expect(await discoverContextWindow('ollama', server.openaiBaseURL, 'llama3.1')).toBe(131072);
    expect(asked).toEqual({ model: 'llama3.1' });
    expect(await discoverContextWindow('ollama', server.openaiBaseURL, 'tuned')).toBe(16384);
    const info = await resolveModelInfo('ollama/llama3.1', { OLLAMA_HOST: server.url });
    expect(info.contextWindow).toBe(131072);
  });

  it("reads llama.cpp's /props and caches the answer", async () => {
    let calls = 0;
    server = await startFakeModelServer({
      routes: { 'GET /props': () => (calls++, { json: { default_generation_settings: { n_ctx: 8192, params: {} }, total_slots: 1 } }) },
    });
    const info = await resolveModelInfo('llamacpp/local', { LLAMACPP_BASE_URL: server.url });
    expect(info.contextWindow).toBe(8192);
    expect(await discoverContextWindow('llamacpp', `${server.url}/v1`, 'local')).toBe(8192);
    expect(calls).toBe(1);
  });

  it('gives up quickly on a server that does not answer, keeping the catalog figure', async () => {
    const hanging = createServer(() => {});
    await new Promise<void>((r) => hanging.listen(0, '127.0.0.1', () => r()));
    const url = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}`;
    try {
      const started = Date.now();
      expect(await discoverContextWindow('ollama', url, 'm', 200)).toBeUndefined();
      expect(Date.now() - started).toBeLessThan(1500);
      expect(await discoverContextWindow('llamacpp', 'http://127.0.0.1:9', 'm', 200)).toBeUndefined();
    } finally {
      hanging.closeAllConnections();
      await new Promise<void>((r) => hanging.close(() => r()));
    }
  });

  it('ignores answers without a usable size', () => {
    expect(ollamaContextFromShow({ model_info: { 'general.architecture': 'x', 'x.context_length': -1 } })).toBeUndefined();
    expect(ollamaContextFromShow('nonsense')).toBeUndefined();
    expect(ollamaContextFromShow({ parameters: 'num_ctx abc' })).toBeUndefined();
  });
});
