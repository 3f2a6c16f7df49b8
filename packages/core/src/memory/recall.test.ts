import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock, type FakeModelServer, makeTempDir, startFakeModelServer, type TempDir } from '@tandem/testkit';
import { Bm25Index } from './bm25-index.js';
import { createOpenAIEmbeddings } from '@tandem/ai';
import { ItemStore } from './memory-items.js';
import { MemoryRecall } from './memory-recall.js';
import { recallTerms } from './recall-tokenizer.js';
import { reciprocalRankFusion } from './rrf.js';
import { VectorIndex } from './vector-index.js';

describe('recallTerms', () => {
  it('lower-cases words, drops stop words and splits CJK into bigrams', () => {
    expect(recallTerms('The Vitest config is at the ROOT')).toEqual(['vitest', 'config', 'root']);
    expect(recallTerms('测试命令')).toEqual(['测试', '试命', '命令']);
    expect(recallTerms('用 pnpm 跑')).toEqual(['用', 'pnpm', '跑']);
  });
});

describe('Bm25Index', () => {
  const fixture: Record<string, string> = {
    lock: 'Always commit pnpm-lock.yaml together with package.json changes; pnpm refuses a stale lockfile.',
    pnpm: 'The user prefers pnpm over npm.',
    tabs: 'Indent with two spaces, never tabs.',
    long: 'A long note about the build: turbo runs build, test and lint; turbo caches outputs in .turbo; the cache is shared by every package in the workspace, and pnpm is used to install.',
    zh: '测试命令是 pnpm vitest run，测试前先构建共享包。',
  };
  const index = new Bm25Index();
  for (const [id, text] of Object.entries(fixture)) index.add(id, text);

  it('ranks the item that matches more of the rare query terms first', () => {
    expect(index.search('pnpm lockfile').map((s) => s.id)[0]).toBe('lock');
    expect(index.search('prefers npm').map((s) => s.id)[0]).toBe('pnpm');
  });

  it('prefers a short item over a long one for the same single term (length normalisation)', () => {
    const ids = index.search('pnpm').map((s) => s.id);
    expect(ids.indexOf('pnpm')).toBeLessThan(ids.indexOf('long'));
  });

  it('finds Chinese items by bigram', () => {
    expect(index.search('测试命令').map((s) => s.id)).toEqual(['zh']);
  });

  it('is incremental: removing and re-adding changes results without a rebuild', () => {
    const local = new Bm25Index();
    local.add('a', 'alpha beta');
    local.add('b', 'beta gamma');
    expect(local.search('alpha').map((s) => s.id)).toEqual(['a']);
    local.remove('a');
    expect(local.search('alpha')).toEqual([]);
    expect(local.size).toBe(1);
    local.add('b', 'alpha only now');
    expect(local.search('gamma')).toEqual([]);
    expect(local.search('alpha').map((s) => s.id)).toEqual(['b']);
  });

  it('after many adds and removes, scores equal those of a fresh index of the survivors', () => {
    const words = ['alpha', 'beta', 'gamma', 'delta', 'eps', 'zeta'];
    const churned = new Bm25Index();
    const alive = new Map<string, string>();
    let seed = 7;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    for (let i = 0; i < 400; i++) {
      const id = `d${Math.floor(rand() * 60)}`;
      if (rand() < 0.4) {
        churned.remove(id);
        alive.delete(id);
      } else {
        const text = Array.from({ length: 1 + Math.floor(rand() * 6) }, () => words[Math.floor(rand() * words.length)]).join(' ');
        churned.add(id, text);
        alive.set(id, text);
      }
    }
    const fresh = new Bm25Index();
    for (const [id, text] of alive) fresh.add(id, text);
    expect(churned.size).toBe(alive.size);
    for (const q of ['alpha', 'beta gamma', 'zeta eps delta']) {
      const a = churned.search(q, 100);
      const b = fresh.search(q, 100);
      expect(a.map((s) => s.id).sort()).toEqual(b.map((s) => s.id).sort());
      const scoreOf = new Map(b.map((s) => [s.id, s.score]));
      for (const s of a) expect(s.score).toBeCloseTo(scoreOf.get(s.id)!, 9);
    }
  });

  it('returns nothing for an empty index or a query of stop words', () => {
    expect(new Bm25Index().search('x')).toEqual([]);
    expect(index.search('the and of')).toEqual([]);
  });
});

describe('reciprocalRankFusion (k = 60)', () => {
  it('adds 1/(k + rank) over the lists', () => {
    const fused = reciprocalRankFusion([
      ['a', 'b', 'c'],
      ['b', 'c', 'd'],
    ]);
    expect(fused.map((f) => f.id)).toEqual(['b', 'c', 'a', 'd']);
    expect(fused[0]!.score).toBeCloseTo(1 / 62 + 1 / 61, 10);
    expect(fused[3]!.score).toBeCloseTo(1 / 63, 10);
  });
});

describe('VectorIndex', () => {
  it('ranks by cosine and refuses vectors of another dimension', () => {
    const v = new VectorIndex();
    v.add('x', [1, 0, 0]);
    v.add('y', [0.7, 0.7, 0]);
    expect(v.add('z', [1, 0])).toBe(false);
    expect(v.add('nan', [Number.NaN, 0, 0])).toBe(false);
    expect(v.search([1, 0.1, 0]).map((s) => s.id)).toEqual(['x', 'y']);
    expect(v.search([1, 0])).toEqual([]);
  });
});

/** A tiny "semantic" embedding: words map to concept axes, so synonyms land together. */
const CONCEPTS: Record<string, number> = { car: 0, automobile: 0, vehicle: 0, truck: 0, pizza: 1, pasta: 1, dinner: 1, typescript: 2, javascript: 2, code: 2 };
function embedText(text: string): number[] {
  const v = [0.01, 0.01, 0.01, 0.01];
  for (const w of text.toLowerCase().split(/\W+/)) if (w in CONCEPTS) v[CONCEPTS[w]!]! += 1;
  return v;
}

describe('MemoryRecall over a real /v1/embeddings endpoint (fake server, official SDK)', () => {
  let server: FakeModelServer;
  let failEmbeddings = false;
  const dirs: TempDir[] = [];
  beforeAll(async () => {
    server = await startFakeModelServer({
      routes: {
        'POST /v1/embeddings': (req) => {
          if (failEmbeddings) return { status: 503, json: { error: { message: 'embeddings model is loading', type: 'server_error' } } };
          const input: string[] = Array.isArray(req.body.input) ? req.body.input : [req.body.input];
          return {
            json: {
              object: 'list',
              model: req.body.model,
              data: input.map((t, index) => ({ object: 'embedding', index, embedding: embedText(t) })),
              usage: { prompt_tokens: 1, total_tokens: 1 },
            },
          };
        },
      },
    });
  });
  afterAll(async () => {
    await server.close();
  });
  afterEach(async () => {
    failEmbeddings = false;
    await Promise.all(dirs.splice(0).map((d) => d.cleanup()));
  });

  async function itemsWith(notes: string[]): Promise<ItemStore> {
    const dir = await makeTempDir('tandem-recall-');
    dirs.push(dir);
    const items = await ItemStore.open(dir.path);
    for (const n of notes) expect((await items.add('note', n)).ok).toBe(true);
    return items;
  }

  it('fuses keyword and vector ranks: a synonym the keywords miss is found (mode hybrid)', async () => {
    const items = await itemsWith(['The automobile is parked in garage 3.', 'Dinner is pizza on Friday.', 'Our car rental ends Monday.']);
    const embeddings = createOpenAIEmbeddings({ id: 'ollama/nomic-embed-text', model: 'nomic-embed-text', baseURL: server.openaiBaseURL });
    const recall = new MemoryRecall(items, embeddings);
    const result = await recall.recall('where is the car', { limit: 2 });
    expect(result.mode).toBe('hybrid');
    expect(result.items.map((r) => r.item.text).sort()).toEqual(['Our car rental ends Monday.', 'The automobile is parked in garage 3.']);
    const req = server.requests.findLast((r) => r.path === '/v1/embeddings')!;
    expect(req.body).toMatchObject({ model: 'nomic-embed-text', encoding_format: 'float' });

    // BM25 alone cannot see the synonym.
    const plain = await new MemoryRecall(items).recall('where is the car', { limit: 2 });
    expect(plain.mode).toBe('bm25');
    expect(plain.items.map((r) => r.item.text)).toEqual(['Our car rental ends Monday.']);
  });

  it('falls back to BM25 and says so when the endpoint fails', async () => {
    const items = await itemsWith(['The automobile is parked in garage 3.', 'Our car rental ends Monday.']);
    failEmbeddings = true;
    const clock = new FakeClock(Date.UTC(2026, 11, 2, 14, 3));
    const recall = new MemoryRecall(
      items,
      createOpenAIEmbeddings({ id: 'openai/text-embedding-3-small', model: 'text-embedding-3-small', baseURL: server.openaiBaseURL, apiKey: 'k' }),
      clock,
    );
    const result = await recall.recall('car');
    expect(result.mode).toBe('bm25');
    expect(result.note).toMatch(/embeddings from openai\/text-embedding-3-small failed .*keyword recall only/);
    expect(result.items.map((r) => r.item.text)).toEqual(['Our car rental ends Monday.']);
    failEmbeddings = false;
    const calls = server.requests.length;
    expect((await recall.recall('car')).mode).toBe('bm25'); // backs off: no call per turn while down
    expect(server.requests.length).toBe(calls);
    await clock.advance(60_000);
    expect((await recall.recall('car')).mode).toBe('hybrid'); // recovers when the endpoint is back
  });
});
