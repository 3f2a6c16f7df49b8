import type { Clock } from '@tandem/ai';
import type { EmbeddingsClient } from '@tandem/ai';
import type { HistorySearchOptions, HistorySearchResult } from './history-search.js';
import { ItemStore, type AddItemResult, type MemoryCaps, type MemoryKind } from './memory-items.js';
import { MemoryRecall, type RecallOptions, type RecallResult } from './memory-recall.js';
import type { MemoryService } from './memory-service.js';
import { MemoryStore } from './memory-store.js';

export interface WorkspaceMemoryOptions {
  dataDir: string;
  workspace: string;
  /** Configured embeddings endpoint; without it recall is BM25 alone. */
  embeddings?: EmbeddingsClient;
  caps?: Partial<MemoryCaps>;
  clock?: Clock;
  /**
   * Called when a write was quarantined, so the host emits a `memory_quarantined` event
   * ({ kind, reason }) to the session named by `source`.
   */
  onQuarantine?: (event: { kind: MemoryKind; reason: string; source?: string }) => void;
}

/**
 * One workspace's memory: MEMORY.md / HISTORY.md (MemoryStore), the recall items (ItemStore)
 * and their indexes (MemoryRecall). Open it once per workspace and share it between sessions.
 */
export class WorkspaceMemory implements MemoryService {
  private constructor(
    readonly store: MemoryStore,
    readonly items: ItemStore,
    readonly recaller: MemoryRecall,
    private readonly onQuarantine: WorkspaceMemoryOptions['onQuarantine'],
  ) {}

  static async open(options: WorkspaceMemoryOptions): Promise<WorkspaceMemory> {
    const store = await MemoryStore.open(options.dataDir, options.workspace);
    const items = await ItemStore.open(store.dir, { ...(options.caps ? { caps: options.caps } : {}), ...(options.clock ? { clock: options.clock } : {}) });
    const recaller = new MemoryRecall(items, options.embeddings, options.clock);
    return new WorkspaceMemory(store, items, recaller, options.onQuarantine);
  }

  searchHistory(pattern: string, options?: HistorySearchOptions): Promise<HistorySearchResult> {
    return this.store.searchHistory(pattern, options);
  }

  recall(query: string, options?: RecallOptions): Promise<RecallResult> {
    return this.recaller.recall(query, options);
  }

  async saveItem(kind: MemoryKind, text: string, options: { replaceId?: string; source?: string } = {}): Promise<AddItemResult> {
    const result = await this.items.add(kind, text, options);
    if (result.ok) {
      if (result.replaced) this.recaller.removed(result.replaced);
      await this.recaller.added(result.item);
    } else if (result.quarantined) {
      this.onQuarantine?.({ kind, reason: result.reason, ...(options.source ? { source: options.source } : {}) });
    }
    return result;
  }

  async removeItem(id: string): Promise<boolean> {
    const removed = await this.items.remove(id);
    if (removed) this.recaller.removed(id);
    return removed;
  }
}
