import { canonicalWorkspace, WorkspaceMemory, type MemoryKind } from '@tandem/core';
import type { Clock, EmbeddingsClient } from '@tandem/ai';

export interface WorkspaceMemoriesOptions {
  dataDir: string;
  clock: Clock;
  /** The configured embeddings endpoint; without it recall is BM25 alone. */
  embeddings?: EmbeddingsClient | undefined;
  /** A write to memory was quarantined; `source` is the session id the tool ran in. */
  onQuarantine(event: { kind: MemoryKind; reason: string; source?: string }): void;
}

/**
 * One `WorkspaceMemory` per workspace (by real path), shared by every session working there,
 * so a note saved in one session is recalled in the next. Opened on first use; a failed open is
 * not cached, so the next turn tries again.
 */
export class WorkspaceMemories {
  private readonly open = new Map<string, Promise<WorkspaceMemory>>();

  constructor(private readonly options: WorkspaceMemoriesOptions) {}

  async for(workspace: string): Promise<WorkspaceMemory> {
    const key = await canonicalWorkspace(workspace);
    let memory = this.open.get(key);
    if (!memory) {
      memory = WorkspaceMemory.open({
        dataDir: this.options.dataDir,
        workspace: key,
        clock: this.options.clock,
        ...(this.options.embeddings ? { embeddings: this.options.embeddings } : {}),
        onQuarantine: (event) => this.options.onQuarantine(event),
      });
      this.open.set(key, memory);
      memory.catch(() => this.open.delete(key));
    }
    return memory;
  }
}
