import type { HistorySearchOptions, HistorySearchResult } from './history-search.js';
import type { AddItemResult, MemoryKind } from './memory-items.js';
import type { RecallOptions, RecallResult } from './memory-recall.js';

/**
 * What the memory tools need from the host, found at `ctx.services.memory`. `WorkspaceMemory`
 * implements it; the server opens one per workspace and passes it in TurnEnvironment.services.
 */
export interface MemoryService {
  searchHistory(pattern: string, options?: HistorySearchOptions): Promise<HistorySearchResult>;
  recall(query: string, options?: RecallOptions): Promise<RecallResult>;
  saveItem(kind: MemoryKind, text: string, options?: { replaceId?: string; source?: string }): Promise<AddItemResult>;
  removeItem(id: string): Promise<boolean>;
}

/** `ctx.services.memory` if the host provided one. */
export function memoryServiceOf(services: Record<string, unknown>): MemoryService | undefined {
  const m = services.memory as Partial<MemoryService> | undefined;
  return m && typeof m.searchHistory === 'function' && typeof m.recall === 'function' ? (m as MemoryService) : undefined;
}
