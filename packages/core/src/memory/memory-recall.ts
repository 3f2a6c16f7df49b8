import { systemClock, type Clock } from '@tandem/ai';
import { Bm25Index } from './bm25-index.js';
import type { EmbeddingsClient } from '@tandem/ai';
import type { ItemStore, MemoryItem, MemoryKind } from './memory-items.js';
import { reciprocalRankFusion } from './rrf.js';
import { VectorIndex } from './vector-index.js';

export interface RecalledItem {
  item: MemoryItem;
  score: number;
}

export interface RecallResult {
  /** `hybrid` when vector similarity took part; `bm25` when there are no embeddings (or they failed). */
  mode: 'bm25' | 'hybrid';
  items: RecalledItem[];
  /** Why the mode is bm25 when embeddings are configured (the endpoint failed). */
  note?: string;
}

export interface RecallOptions {
  limit?: number;
  kind?: MemoryKind;
  signal?: AbortSignal;
}

const CANDIDATES = 50;
/** After the embeddings endpoint failed, recall is keyword-only for this long (no per-turn stalls). */
const EMBEDDINGS_BACKOFF_MS = 60_000;

/**
 * Hybrid recall over the item store (requirements H5): BM25 always, vector similarity when an
 * embeddings client is configured, fused by reciprocal rank fusion (k = 60). Both indexes are
 * kept up to date item by item through `added` / `removed`; nothing is rebuilt per query.
 */
export class MemoryRecall {
  private readonly bm25 = new Bm25Index();
  private readonly vectors = new VectorIndex();
  private embeddingsError: string | undefined;
  private downUntil = 0;

  constructor(
    private readonly items: ItemStore,
    private readonly embeddings?: EmbeddingsClient,
    private readonly clock: Clock = systemClock,
  ) {
    for (const item of items.list()) this.bm25.add(item.id, item.text);
  }

  get mode(): 'bm25' | 'hybrid' {
    return this.embeddings ? 'hybrid' : 'bm25';
  }

  /** Embeds the items that have no vector yet (at start, after an endpoint outage). */
  async warm(signal?: AbortSignal): Promise<void> {
    if (!this.embeddings) return;
    const missing = this.items.list().filter((i) => !this.vectors.has(i.id));
    if (missing.length === 0) return;
    try {
      const vectors = await this.embeddings.embed(
        missing.map((i) => i.text),
        signal,
      );
      missing.forEach((item, k) => this.vectors.add(item.id, vectors[k] ?? []));
      this.embeddingsError = undefined;
    } catch (err) {
      this.failed(err);
    }
  }

  private failed(err: unknown): void {
    this.embeddingsError = `embeddings from ${this.embeddings?.id} failed (${(err as Error).message})`;
    this.downUntil = this.clock.now() + EMBEDDINGS_BACKOFF_MS;
  }

  async added(item: MemoryItem, signal?: AbortSignal): Promise<void> {
    this.bm25.add(item.id, item.text);
    if (!this.embeddings) return;
    try {
      const [vector] = await this.embeddings.embed([item.text], signal);
      if (vector) this.vectors.add(item.id, vector);
    } catch (err) {
      this.failed(err);
    }
  }

  removed(id: string): void {
    this.bm25.remove(id);
    this.vectors.remove(id);
  }

  async recall(query: string, options: RecallOptions = {}): Promise<RecallResult> {
    const limit = Math.min(50, Math.max(1, options.limit ?? 8));
    const keep = (id: string) => {
      const item = this.items.get(id);
      return item && (!options.kind || item.kind === options.kind) ? item : undefined;
    };
    const keyword = this.bm25.search(query, CANDIDATES).filter((s) => keep(s.id));
    if (!this.embeddings || !query.trim()) return { mode: 'bm25', items: resolve(keyword, keep, limit) };

    if (this.embeddingsError && this.clock.now() < this.downUntil) {
      return { mode: 'bm25', items: resolve(keyword, keep, limit), note: `${this.embeddingsError}; keyword recall only until it answers again` };
    }
    let semantic: Array<{ id: string; score: number }>;
    try {
      await this.warm(options.signal);
      const [q] = await this.embeddings.embed([query], options.signal);
      semantic = this.vectors.search(q ?? [], CANDIDATES).filter((s) => keep(s.id));
    } catch (err) {
      this.failed(err);
      return { mode: 'bm25', items: resolve(keyword, keep, limit), note: `${this.embeddingsError}; keyword recall only` };
    }
    if (this.embeddingsError) {
      return { mode: 'bm25', items: resolve(keyword, keep, limit), note: `${this.embeddingsError}; keyword recall only` };
    }
    const fused = reciprocalRankFusion([keyword.map((s) => s.id), semantic.map((s) => s.id)]);
    return { mode: 'hybrid', items: resolve(fused, keep, limit) };
  }
}

function resolve(scored: Array<{ id: string; score: number }>, keep: (id: string) => MemoryItem | undefined, limit: number): RecalledItem[] {
  const out: RecalledItem[] = [];
  for (const s of scored) {
    const item = keep(s.id);
    if (item) out.push({ item, score: s.score });
    if (out.length >= limit) break;
  }
  return out;
}
