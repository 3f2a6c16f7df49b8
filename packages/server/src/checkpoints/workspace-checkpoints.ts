import type { ShadowRepo } from './shadow-repo.js';

/** Paths written by file tools, remembered per workspace past this many (oldest first forgotten). */
const MAX_REMEMBERED_WRITES = 10_000;

/**
 * One workspace's shadow repository and what its sessions' file tools wrote when: a command's
 * changes are found by comparing snapshots around it, and a file another session's file tool
 * wrote meanwhile is that session's change, not the command's.
 */
export class WorkspaceCheckpoints {
  private ticks = 0;
  private readonly writes = new Map<string, { sessionId: string; tick: number }>();

  constructor(readonly repo: ShadowRepo) {}

  /** A moment on this workspace's clock (only order matters). */
  tick(): number {
    return ++this.ticks;
  }

  noteFileToolWrite(sessionId: string, paths: readonly string[]): void {
    const tick = this.tick();
    for (const p of paths) {
      this.writes.delete(p);
      this.writes.set(p, { sessionId, tick });
    }
    while (this.writes.size > MAX_REMEMBERED_WRITES) this.writes.delete(this.writes.keys().next().value as string);
  }

  /** Whether another session's file tool wrote `path` at or after `since`. */
  writtenByOther(path: string, sessionId: string, since: number): boolean {
    const write = this.writes.get(path);
    return write !== undefined && write.sessionId !== sessionId && write.tick >= since;
  }
}
