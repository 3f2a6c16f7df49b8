import { readFileSync } from 'node:fs';
import { writeFileAtomicSync } from '@tandem/core';
import type { FileState } from './shadow-repo.js';

/** What one turn did to the workspace: each file it changed, before the turn touched it and after the turn. */
export interface TurnRecord {
  turnId: string;
  /** Position among the session's turns (1, 2, …); names its refs in the shadow repository. */
  index: number;
  startedAt: string;
  /** Set once the turn ended: its files' `after` states are then known. */
  endedAt?: string;
  cancelled?: boolean;
  /** Once ended with changes: one tree holding the files as they were (`before/…`) and as the turn left them (`after/…`), kept by a ref. */
  tree?: string;
  /** Workspace-relative path → its state before the turn first changed it, and at the turn's end. */
  files: Record<string, { before: FileState; after?: FileState }>;
}

/** The session's turns, oldest first, in `<session dir>/checkpoints.json` (removed with the session). */
export function readRecords(file: string): TurnRecord[] {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as { turns?: unknown };
    return Array.isArray(parsed.turns) ? (parsed.turns as TurnRecord[]).filter((t) => typeof t?.turnId === 'string' && typeof t.index === 'number') : [];
  } catch {
    return [];
  }
}

export function writeRecords(file: string, turns: readonly TurnRecord[]): void {
  writeFileAtomicSync(file, `${JSON.stringify({ turns })}\n`);
}

/** The files a record changed, as `session:diff` lists them. */
export function recordStatus(record: TurnRecord): Array<{ path: string; status: 'added' | 'modified' | 'deleted' }> {
  return Object.entries(record.files)
    .filter(([, f]) => f.after !== undefined && !sameState(f.before, f.after))
    .map(([path, f]) => ({ path, status: f.before === null ? 'added' : f.after === null ? 'deleted' : 'modified' }));
}

export function sameState(a: FileState | undefined, b: FileState | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  if (a === null || b === null) return a === b;
  return a.blob === b.blob && a.mode === b.mode;
}
