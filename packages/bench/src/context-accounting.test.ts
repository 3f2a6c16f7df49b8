import { describe, expect, it } from 'vitest';
import { benchContextAccounting } from './context-accounting.js';

describe('benchContextAccounting', () => {
  it('bench: per-event cost stays flat up to 5,000 messages while the naive baseline grows', () => {
    const rows = benchContextAccounting([500, 5000], 100);
    expect(rows.map((r) => r.messages)).toEqual([500, 5000]);
    for (const r of rows) expect(r.incrementalMicros).toBeGreaterThan(0);
    // Structural claim, not a timing one: the naive baseline at 5,000 costs more than the
    // incremental path by a wide margin.
    const at5k = rows[1]!;
    expect(at5k.naiveMicros).toBeGreaterThan(at5k.incrementalMicros * 10);
  });
});
