import path from 'node:path';
import { ItemStore, type MemoryItem } from './memory-items.js';
import { memoryDirFor, MEMORY_FILE } from './memory-dir.js';
import { MemoryStore } from './memory-store.js';

export interface MemorySnapshot {
  workspace: string;
  dir: string;
  memoryPath: string;
  memory: string;
  history: string;
  items: MemoryItem[];
  quarantined: Array<{ at: string; kind: string; text: string; reason: string }>;
}

/**
 * Everything remembered for `workspace` (served by `memory:show`; `tandem memory export` renders it). Reading
 * creates nothing: a workspace without memory gives empty strings and lists.
 */
export async function readMemory(dataDir: string, workspace: string): Promise<MemorySnapshot> {
  const store = await MemoryStore.openDir(await memoryDirFor(dataDir, workspace));
  const items = await ItemStore.open(store.dir);
  return {
    workspace: path.resolve(workspace),
    dir: store.dir,
    memoryPath: path.join(store.dir, MEMORY_FILE),
    memory: await store.readMemory(),
    history: await store.readHistory(),
    items: items.list(),
    quarantined: await items.quarantined(),
  };
}
