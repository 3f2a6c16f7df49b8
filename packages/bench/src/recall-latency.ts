import { performance } from 'node:perf_hooks';
import { Bm25Index, reciprocalRankFusion, VectorIndex } from '@tandem/core';
import { seededRandom } from '@tandem/testkit';

export interface RecallBenchRow {
  items: number;
  /** Building the index item by item, ms in total. */
  indexMs: number;
  /** Adding one more item to the built index, µs (incremental, no rebuild). */
  addMicros: number;
  bm25P50Ms: number;
  bm25P99Ms: number;
  /** BM25 + brute-force cosine over synthetic vectors + RRF. */
  hybridP50Ms: number;
  hybridP99Ms: number;
}

const HAN = '记忆上下文模型会话工具文件路径配置缓存索引查询向量代理循环重试超时权限审计日志历史用户工作区';
const VOCABULARY = 5_000;

/** A deterministic vocabulary of pronounceable words; rank 0 is the most frequent. */
const WORDS: string[] = Array.from({ length: VOCABULARY }, (_, i) => {
  const c = 'bcdfghklmnprstvz';
  const v = 'aeiou';
  let w = '';
  let x = i + 7;
  do {
    w += c[x % c.length]! + v[Math.floor(x / c.length) % v.length]!;
    x = Math.floor(x / (c.length * v.length));
  } while (x > 0);
  return w;
});

/** Zipf-like word choice (log-uniform rank), as in natural text: few common words, a long tail. */
function zipfWord(rand: () => number): string {
  const rank = Math.min(VOCABULARY - 1, Math.floor(Math.exp(rand() * Math.log(VOCABULARY))) - 1);
  return WORDS[rank]!;
}

/**
 * Recall latency over synthetic memories of the given sizes (12-word
 * items over a 5,000-word Zipf vocabulary with some CJK). Indexes are built once, then queried;
 * query latency p50/p99 for BM25 alone and for the hybrid path (BM25 + cosine + RRF).
 */
export function benchRecall(sizes: readonly number[] = [10_000, 100_000], options: { queries?: number; dims?: number; seed?: number } = {}): RecallBenchRow[] {
  const queries = options.queries ?? 200;
  const dims = options.dims ?? 64;
  const rows: RecallBenchRow[] = [];
  for (const size of sizes) {
    const rand = seededRandom(options.seed ?? 42);
    const bm25 = new Bm25Index();
    const vectors = new VectorIndex();
    const start = performance.now();
    for (let i = 0; i < size; i++) {
      bm25.add(`m${i}`, syntheticText(rand));
      vectors.add(`m${i}`, randomVector(rand, dims));
    }
    const indexMs = performance.now() - start;
    const addStart = performance.now();
    for (let i = 0; i < 100; i++) bm25.add(`extra${i}`, syntheticText(rand));
    const addMicros = ((performance.now() - addStart) * 1000) / 100;

    const bm25Times: number[] = [];
    const hybridTimes: number[] = [];
    for (let q = 0; q < queries; q++) {
      const query = syntheticText(rand, 4);
      let t = performance.now();
      const keyword = bm25.search(query, 50);
      bm25Times.push(performance.now() - t);
      t = performance.now();
      const semantic = vectors.search(randomVector(rand, dims), 50);
      reciprocalRankFusion([bm25.search(query, 50).map((s) => s.id), semantic.map((s) => s.id)]);
      hybridTimes.push(performance.now() - t);
      if (keyword.length < 0) throw new Error('unreachable');
    }
    rows.push({
      items: size,
      indexMs: round(indexMs),
      addMicros: round(addMicros),
      bm25P50Ms: round(percentile(bm25Times, 0.5)),
      bm25P99Ms: round(percentile(bm25Times, 0.99)),
      hybridP50Ms: round(percentile(hybridTimes, 0.5)),
      hybridP99Ms: round(percentile(hybridTimes, 0.99)),
    });
  }
  return rows;
}

function syntheticText(rand: () => number, words = 12): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++) {
    if (rand() < 0.15) {
      const at = Math.floor(rand() * (HAN.length - 2));
      out.push(HAN.slice(at, at + 2));
    } else out.push(zipfWord(rand));
  }
  return out.join(' ');
}

function randomVector(rand: () => number, dims: number): number[] {
  return Array.from({ length: dims }, () => rand() * 2 - 1);
}

function percentile(xs: number[], p: number): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}
