import { recallTerms } from './recall-tokenizer.js';
import { TopK, type ScoredId } from './top-k.js';

interface Posting {
  docs: number[];
  tfs: number[];
  /** Entries whose document was removed (skipped, compacted away when they pile up). */
  dead: number;
}

/**
 * An incremental BM25 index (k1 = 1.2, b = 0.75). Documents get dense internal numbers;
 * postings are parallel arrays; adding a document touches only its own terms, removing one
 * marks it dead. A query walks only the posting lists of its terms into a reused score buffer.
 * Nothing is rebuilt per query.
 */
export class Bm25Index {
  private readonly numberOf = new Map<string, number>();
  private readonly ids: string[] = [];
  /** Term count per document number; -1 once removed. */
  private readonly lengths: number[] = [];
  private readonly termsOf: Array<string[] | undefined> = [];
  private readonly postings = new Map<string, Posting>();
  private totalLength = 0;
  private live = 0;
  private scores = new Float64Array(0);
  private stamp = new Uint32Array(0);
  private query = 0;

  constructor(
    private readonly k1 = 1.2,
    private readonly b = 0.75,
  ) {}

  get size(): number {
    return this.live;
  }

  add(id: string, text: string): void {
    if (this.numberOf.has(id)) this.remove(id);
    const list = recallTerms(text);
    const counts = new Map<string, number>();
    for (const t of list) counts.set(t, (counts.get(t) ?? 0) + 1);
    const n = this.ids.length;
    this.numberOf.set(id, n);
    this.ids.push(id);
    this.lengths.push(list.length);
    this.termsOf.push([...counts.keys()]);
    this.totalLength += list.length;
    this.live++;
    for (const [t, tf] of counts) {
      let posting = this.postings.get(t);
      if (!posting) this.postings.set(t, (posting = { docs: [], tfs: [], dead: 0 }));
      posting.docs.push(n);
      posting.tfs.push(tf);
    }
  }

  remove(id: string): void {
    const n = this.numberOf.get(id);
    if (n === undefined) return;
    this.numberOf.delete(id);
    this.totalLength -= this.lengths[n]!;
    this.lengths[n] = -1;
    this.live--;
    for (const t of this.termsOf[n] ?? []) {
      const posting = this.postings.get(t);
      if (!posting) continue;
      posting.dead++;
      if (posting.dead === posting.docs.length) this.postings.delete(t);
      else if (posting.dead * 2 > posting.docs.length) this.compact(posting);
    }
    this.termsOf[n] = undefined;
  }

  search(query: string, limit = 10): ScoredId[] {
    if (this.live === 0) return [];
    const n = this.live;
    const avgdl = this.totalLength / n || 1;
    if (this.scores.length < this.ids.length) {
      this.scores = new Float64Array(this.ids.length * 2);
      this.stamp = new Uint32Array(this.ids.length * 2);
    }
    const q = ++this.query;
    const touched: number[] = [];
    const { k1, b, lengths, scores, stamp } = this;
    for (const term of new Set(recallTerms(query))) {
      const posting = this.postings.get(term);
      if (!posting) continue;
      const df = posting.docs.length - posting.dead;
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      const { docs, tfs } = posting;
      for (let i = 0; i < docs.length; i++) {
        const d = docs[i]!;
        const dl = lengths[d]!;
        if (dl < 0) continue;
        const tf = tfs[i]!;
        const s = (idf * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * dl) / avgdl));
        if (stamp[d] !== q) {
          stamp[d] = q;
          scores[d] = s;
          touched.push(d);
        } else scores[d]! += s;
      }
    }
    const top = new TopK(limit);
    for (const d of touched) top.push(this.ids[d]!, scores[d]!);
    return top.result();
  }

  private compact(posting: Posting): void {
    const docs: number[] = [];
    const tfs: number[] = [];
    posting.docs.forEach((d, i) => {
      if (this.lengths[d]! >= 0) {
        docs.push(d);
        tfs.push(posting.tfs[i]!);
      }
    });
    posting.docs = docs;
    posting.tfs = tfs;
    posting.dead = 0;
  }
}
