import { describe, expect, it } from 'vitest';
import { benchRecall } from './recall-latency.js';

describe('benchRecall', () => {
  it('returns latencies per size from an index built once', () => {
    const rows = benchRecall([500, 2000], { queries: 20, dims: 8 });
    expect(rows.map((r) => r.items)).toEqual([500, 2000]);
    for (const r of rows) {
      expect(r.bm25P50Ms).toBeGreaterThanOrEqual(0);
      expect(r.bm25P99Ms).toBeGreaterThanOrEqual(r.bm25P50Ms);
      expect(r.hybridP99Ms).toBeGreaterThanOrEqual(r.hybridP50Ms);
      expect(r.indexMs).toBeGreaterThan(0);
    }
  });
});
