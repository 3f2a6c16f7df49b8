import type { ToolServices } from '../tools/define.js';
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

/** The memory tools' host service. */
export interface MemoryServices {
  memory?: MemoryService;
}

declare module '../tools/define.js' {
  interface ToolServices extends MemoryServices {}
}

/** `ctx.services.memory` if the host provided one. */
export function memoryServiceOf(services: ToolServices): MemoryService | undefined {
  return services.memory;
}
