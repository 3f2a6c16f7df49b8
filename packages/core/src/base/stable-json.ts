/**
 * JSON with object keys sorted at every level, so two argument objects that differ only in key
 * order give the same text. Values JSON cannot hold (cycles, bigint) fall back to a marker
 * instead of throwing: this is used for comparison, never parsed back.
 */
export function stableJson(value: unknown): string {
  const seen = new WeakSet<object>();
  const walk = (v: unknown): unknown => {
    if (typeof v === 'bigint') return `${v}n`;
    if (v === null || typeof v !== 'object') return v;
    if (seen.has(v)) return '[cycle]';
    seen.add(v);
    let out: unknown;
    if (Array.isArray(v)) out = v.map(walk);
    else {
      const sorted: Record<string, unknown> = {};
      for (const key of Object.keys(v).sort()) sorted[key] = walk((v as Record<string, unknown>)[key]);
      out = sorted;
    }
    seen.delete(v);
    return out;
  };
  return JSON.stringify(walk(value)) ?? 'undefined';
}
