import { TopK, type ScoredId } from './top-k.js';

/** Unit-normalised vectors by id; cosine similarity by brute force (fine to ~100k small items). */
export class VectorIndex {
  private readonly vectors = new Map<string, Float32Array>();
  private dims: number | undefined;

  get size(): number {
    return this.vectors.size;
  }

  has(id: string): boolean {
    return this.vectors.has(id);
  }

  /** Stores a vector; one of a different dimension than the first is refused (mixed models). */
  add(id: string, vector: readonly number[]): boolean {
    if (vector.length === 0 || (this.dims !== undefined && vector.length !== this.dims)) return false;
    const v = normalise(vector);
    if (!v) return false;
    this.dims ??= vector.length;
    this.vectors.set(id, v);
    return true;
  }

  remove(id: string): void {
    this.vectors.delete(id);
  }

  search(query: readonly number[], limit = 10): ScoredId[] {
    const q = normalise(query);
    if (!q || q.length !== this.dims) return [];
    const top = new TopK(limit);
    for (const [id, v] of this.vectors) {
      let dot = 0;
      for (let i = 0; i < v.length; i++) dot += v[i]! * q[i]!;
      top.push(id, dot);
    }
    return top.result();
  }
}

function normalise(vector: readonly number[]): Float32Array | undefined {
  let norm = 0;
  for (const x of vector) {
    if (!Number.isFinite(x)) return undefined;
    norm += x * x;
  }
  if (norm === 0) return undefined;
  const inv = 1 / Math.sqrt(norm);
  return Float32Array.from(vector, (x) => x * inv);
}
