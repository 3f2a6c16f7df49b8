import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AgentSlicesSnapshot } from '../agents/agent-slices.js';
import { checkLogSnapshot, type LogSnapshot } from './log-snapshot.js';
import type { SessionStateSnapshot } from './session-state-fold.js';

/** Bumped whenever the stored shape or the meaning of a part changes; another version is ignored. */
export const SNAPSHOT_VERSION = 1;

/**
 * `snapshot.json` beside a session's `events.jsonl`: everything a load needs up to one event of
 * the log (the log's own state, the session's folds, each agent's conversation), so a start reads
 * the log only after it. The log stays the source of truth: a snapshot that does not fit it is
 * ignored and rebuilt.
 */
export interface SessionSnapshot {
  version: typeof SNAPSHOT_VERSION;
  log: LogSnapshot;
  state: SessionStateSnapshot;
  conversation: AgentSlicesSnapshot;
}

export function snapshotPath(sessionDir: string): string {
  return join(sessionDir, 'snapshot.json');
}

/** The stored snapshot, `undefined` when there is none, or why it cannot be used. */
export async function readSnapshot(path: string): Promise<SessionSnapshot | undefined | { problem: string }> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    return { problem: `cannot read it: ${err instanceof Error ? err.message : String(err)}` };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { problem: 'it is not valid JSON' };
  }
  const version = (value as { version?: unknown } | null)?.version;
  if (version !== SNAPSHOT_VERSION) return { problem: `it has version ${String(version)}, this server reads ${SNAPSHOT_VERSION}` };
  const snapshot = value as SessionSnapshot;
  try {
    checkLogSnapshot(snapshot.log);
  } catch (err) {
    return { problem: err instanceof Error ? err.message : String(err) };
  }
  return snapshot;
}
