export interface ScoredId {
  id: string;
  score: number;
}

/** Keeps the `limit` best (id, score) pairs pushed into it: a min-heap, O(log limit) per push. */
export class TopK {
  private readonly heap: ScoredId[] = [];

  constructor(private readonly limit: number) {}

  push(id: string, score: number): void {
    if (this.limit <= 0) return;
    const heap = this.heap;
    if (heap.length < this.limit) {
      heap.push({ id, score });
      this.up(heap.length - 1);
    } else if (worse(heap[0]!, id, score)) {
      heap[0] = { id, score };
      this.down(0);
    }
  }

  /** Best first; ties by id. */
  result(): ScoredId[] {
    return [...this.heap].sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  private up(i: number): void {
    const h = this.heap;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!worse(h[i]!, h[p]!.id, h[p]!.score)) break;
      [h[i], h[p]] = [h[p]!, h[i]!];
      i = p;
    }
  }

  private down(i: number): void {
    const h = this.heap;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < h.length && worse(h[l]!, h[m]!.id, h[m]!.score)) m = l;
      if (r < h.length && worse(h[r]!, h[m]!.id, h[m]!.score)) m = r;
      if (m === i) return;
      [h[i], h[m]] = [h[m]!, h[i]!];
      i = m;
    }
  }
}

/** True when `a` ranks below (id, score). */
function worse(a: ScoredId, id: string, score: number): boolean {
  return a.score < score || (a.score === score && a.id > id);
}
