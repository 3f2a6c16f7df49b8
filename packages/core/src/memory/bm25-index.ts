import { recallTerms } from './recall-tokenizer.js';

export interface ScoredId {
  id: string;
  score: number;
}

/**
 * An incremental BM25 index (k1 = 1.2, b = 0.75): adding or removing a document touches only
 * its own terms; a query walks only the posting lists of its terms. Nothing is rebuilt per query.
 */
export class Bm25Index {
  private readonly docs = new Map<string, { length: number; terms: Map<string, number> }>();
  private readonly postings = new Map<string, Map<string, number>>();
  private totalLength = 0;

  constructor(
    private readonly k1 = 1.2,
    private readonly b = 0.75,
  ) {}

  get size(): number {
    return this.docs.size;
  }

  add(id: string, text: string): void {
    if (this.docs.has(id)) this.remove(id);
    const terms = new Map<string, number>();
    const list = recallTerms(text);
    for (const t of list) terms.set(t, (terms.get(t) ?? 0) + 1);
    this.docs.set(id, { length: list.length, terms });
    this.totalLength += list.length;
    for (const [t, tf] of terms) {
      let posting = this.postings.get(t);
      if (!posting) this.postings.set(t, (posting = new Map()));
      posting.set(id, tf);
    }
  }

  remove(id: string): void {
    const doc = this.docs.get(id);
    if (!doc) return;
    this.docs.delete(id);
    this.totalLength -= doc.length;
    for (const t of doc.terms.keys()) {
      const posting = this.postings.get(t);
      posting?.delete(id);
      if (posting?.size === 0) this.postings.delete(t);
    }
  }

  search(query: string, limit = 10): ScoredId[] {
    const n = this.docs.size;
    if (n === 0) return [];
    const avgdl = this.totalLength / n || 1;
    const scores = new Map<string, number>();
    for (const term of new Set(recallTerms(query))) {
      const posting = this.postings.get(term);
      if (!posting) continue;
      const idf = Math.log(1 + (n - posting.size + 0.5) / (posting.size + 0.5));
      for (const [id, tf] of posting) {
        const dl = this.docs.get(id)!.length;
        const s = (idf * tf * (this.k1 + 1)) / (tf + this.k1 * (1 - this.b + (this.b * dl) / avgdl));
        scores.set(id, (scores.get(id) ?? 0) + s);
      }
    }
    return topK(scores, limit);
  }
}

/** The `limit` best entries of `scores`, best first, ties by id; O(n log limit). */
export function topK(scores: Map<string, number>, limit: number): ScoredId[] {
  const heap: ScoredId[] = []; // min-heap by score
  const worse = (a: ScoredId, b: ScoredId) => a.score < b.score || (a.score === b.score && a.id > b.id);
  const up = (i: number) => {
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!worse(heap[i]!, heap[p]!)) break;
      [heap[i], heap[p]] = [heap[p]!, heap[i]!];
      i = p;
    }
  };
  const down = (i: number) => {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < heap.length && worse(heap[l]!, heap[m]!)) m = l;
      if (r < heap.length && worse(heap[r]!, heap[m]!)) m = r;
      if (m === i) return;
      [heap[i], heap[m]] = [heap[m]!, heap[i]!];
      i = m;
    }
  };
  if (limit <= 0) return [];
  for (const [id, score] of scores) {
    const item = { id, score };
    if (heap.length < limit) {
      heap.push(item);
      up(heap.length - 1);
    } else if (worse(heap[0]!, item)) {
      heap[0] = item;
      down(0);
    }
  }
  return heap.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
}
