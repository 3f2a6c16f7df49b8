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
 * Everything remembered for `workspace` (for `tandem memory show` and `memory:show`). Reading
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

/** `tandem memory export [--json]`: MEMORY.md, HISTORY.md and the items as markdown or JSON. */
export async function exportMemory(dataDir: string, workspace: string, format: 'markdown' | 'json' = 'markdown'): Promise<string> {
  const snap = await readMemory(dataDir, workspace);
  if (format === 'json') {
    return `${JSON.stringify({ workspace: snap.workspace, memory: snap.memory, history: snap.history, items: snap.items, quarantined: snap.quarantined }, null, 2)}\n`;
  }
  const list = (kind: MemoryItem['kind']) =>
    snap.items
      .filter((i) => i.kind === kind)
      .map((i) => `- ${i.text} _(${i.id}, ${i.createdAt.slice(0, 10)})_`)
      .join('\n') || '_none_';
  return [
    `# Tandem memory — ${snap.workspace}`,
    '',
    '## MEMORY.md',
    '',
    snap.memory.trim() || '_empty_',
    '',
    '## User profile',
    '',
    list('profile'),
    '',
    '## Agent notes',
    '',
    list('note'),
    '',
    '## HISTORY.md',
    '',
    snap.history.trim() || '_empty_',
    '',
  ].join('\n');
}

