import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeModelServer, type FakeModelServer, type FakeRequest } from '@tandem/testkit';
import { startTestServer, tempDir, type TestServer } from './server-harness.js';

/**
 * requirements H5 in the server: with `embeddings` in config.json, recall_memory fuses BM25 with vector
 * similarity from the configured /v1/embeddings endpoint (the key read from the env variable the
 * config names); without it, recall is BM25 alone and says so.
 */
let fake: FakeModelServer | undefined;
let server: TestServer | undefined;
afterEach(async () => {
  await server?.stop();
  await fake?.close();
  server = fake = undefined;
});

/** Deterministic toy vectors: texts sharing a letter histogram land close together. */
function embed(text: string): number[] {
  const v = new Array(26).fill(0);
  for (const ch of text.toLowerCase()) if (ch >= 'a' && ch <= 'z') v[ch.charCodeAt(0) - 97]++;
  return v;
}

async function recallThroughATurn(configFor: (fakeBaseURL: string) => object | undefined): Promise<{ output: string; embeddingRequests: FakeRequest[] }> {
  fake = await startFakeModelServer({
    routes: {
      'POST /v1/embeddings': (req) => {
        const input = req.body.input as string[];
        return {
          json: {
            object: 'list',
            model: req.body.model,
            data: input.map((t, index) => ({ object: 'embedding', index, embedding: embed(t) })),
            usage: { prompt_tokens: 1, total_tokens: 1 },
          },
        };
      },
    },
  });
  const dataDir = (await tempDir('tandem-embed-data-')).path;
  const config = configFor(fake.openaiBaseURL);
  if (config) await writeFile(join(dataDir, 'config.json'), JSON.stringify(config));
  server = await startTestServer({ dataDir, env: { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: fake.openaiBaseURL, EMBED_KEY: 'embed-secret' } });
  const alice = await server.connect('alice');
  const { session } = await alice.ok('session:create', {});
  await alice.ok('session:attach', { sessionId: session.id, role: 'driver' });
  alice.approveAll(session.id);
  fake.enqueue(
    { toolCalls: [{ name: 'save_note', args: { kind: 'note', text: 'The deploy script lives in tools/ship.sh' } }] },
    { toolCalls: [{ name: 'recall_memory', args: { query: 'where is the deploy script' } }] },
    { text: 'Found it.' },
  );
  await alice.ok('session:send', { sessionId: session.id, text: 'remember and recall' });
  await alice.waitFor((e) => e.type === 'turn_done');
  const result = alice.events.find((e) => e.type === 'tool_result' && e.tool === 'recall_memory');
  if (result?.type !== 'tool_result') throw new Error('no recall_memory result');
  return { output: result.output, embeddingRequests: fake.requests.filter((r) => r.path === '/v1/embeddings') };
}

describe('memory recall in the server', () => {
  it('is hybrid when config.json names an embeddings endpoint, with the key from the named env variable', async () => {
    const { output, embeddingRequests } = await recallThroughATurn((baseURL) => ({
      embeddings: { model: 'nomic-embed-text', baseURL, apiKeyEnv: 'EMBED_KEY' },
    }));
    expect(output).toMatch(/^mode: hybrid/);
    expect(output).toContain('tools/ship.sh');
    expect(embeddingRequests.length).toBeGreaterThan(0);
    expect(embeddingRequests[0]!.body).toMatchObject({ model: 'nomic-embed-text', encoding_format: 'float' });
    expect(embeddingRequests[0]!.headers.authorization).toBe('Bearer embed-secret');
  });

  it('is BM25 alone without embeddings, and says so', async () => {
    const { output, embeddingRequests } = await recallThroughATurn(() => undefined);
    expect(output).toMatch(/^mode: bm25/);
    expect(output).toContain('tools/ship.sh');
    expect(embeddingRequests).toHaveLength(0);
  });
});
