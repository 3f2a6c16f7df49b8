import { randomUUID } from 'node:crypto';
import { mkdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { StoredPermissionSchema, type StoredPermission } from '@tandem/shared';
import { systemClock, type Clock } from '@tandem/ai';
import { writeFileAtomic } from '@tandem/core';
import type { RuleDraft } from '@tandem/coding-tools';
import { parseStoredJson } from '../parse-stored-json.js';
import { workspaceKey } from './workspace-key.js';

export const PERMISSIONS_FILE = 'permissions.json';

/** On disk: `{ version: 1, workspaces: { "<real path>": StoredPermission[] } }`. */
interface PermissionsFile {
  version: 1;
  workspaces: Record<string, StoredPermission[]>;
}

export interface PermissionStoreOptions {
  dataDir: string;
  clock?: Clock;
  newId?: () => string;
}

export type RevokeResult = { ok: true; removed: StoredPermission } | { ok: false; error: 'not_found'; message: string };

/**
 * Forever-decisions (requirements P2), per workspace, in `<dataDir>/permissions.json`. The file is
 * small and written only when a decision is made or revoked, atomically (temp + rename). Every
 * change first re-reads the file if another process (the `tandem permissions` CLI) changed it,
 * so neither side overwrites the other's change; `refresh()` does the same for readers.
 *
 * A damaged file never stops the server: unreadable JSON is copied aside to
 * `permissions.json.corrupt-<time>` and the store starts empty; invalid entries are skipped.
 * Both are reported in `warnings`.
 */
export class PermissionStore {
  readonly file: string;
  readonly warnings: string[] = [];
  private byWorkspace = new Map<string, StoredPermission[]>();
  private seen: string | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly clock: Clock;
  private readonly newId: () => string;

  private constructor(options: PermissionStoreOptions) {
    this.file = path.join(options.dataDir, PERMISSIONS_FILE);
    this.clock = options.clock ?? systemClock;
    this.newId = options.newId ?? randomUUID;
  }

  static async open(options: PermissionStoreOptions): Promise<PermissionStore> {
    const store = new PermissionStore(options);
    try {
      await mkdir(options.dataDir, { recursive: true });
      await store.load();
    } catch (error) {
      throw new Error(`cannot read stored permissions ${store.file}: ${(error as Error).message}; check that the data directory is readable and writable`, {
        cause: error,
      });
    }
    return store;
  }

  /** The stored rules of one workspace (already keyed by `workspaceKey`). No I/O. */
  rulesFor(key: string): readonly StoredPermission[] {
    return this.byWorkspace.get(key) ?? [];
  }

  /** Every rule, or one workspace's (any path to it). */
  async list(workspace?: string): Promise<StoredPermission[]> {
    await this.refresh();
    if (workspace !== undefined) return [...this.rulesFor(await workspaceKey(workspace))];
    return [...this.byWorkspace.values()].flat();
  }

  /** Records a forever-decision. A rule with the same tool, match, pattern and effect is replaced. */
  add(key: string, draft: RuleDraft): Promise<StoredPermission> {
    return this.exclusive(async () => {
      await this.refresh();
      const rule: StoredPermission = {
        id: this.newId(),
        workspace: key,
        tool: draft.tool,
        match: draft.match,
        effect: draft.effect,
        by: draft.by,
        createdAt: new Date(this.clock.now()).toISOString(),
      };
      if (draft.pattern !== undefined) rule.pattern = draft.pattern;
      const same = (r: StoredPermission) => r.tool === rule.tool && r.match === rule.match && r.pattern === rule.pattern && r.effect === rule.effect;
      const next = new Map(this.byWorkspace);
      next.set(key, [...(next.get(key) ?? []).filter((r) => !same(r)), rule]);
      await this.save(next);
      return rule;
    });
  }

  revoke(id: string): Promise<RevokeResult> {
    return this.exclusive(async () => {
      await this.refresh();
      for (const [key, rules] of this.byWorkspace) {
        const removed = rules.find((r) => r.id === id);
        if (!removed) continue;
        const next = new Map(this.byWorkspace);
        const rest = rules.filter((r) => r.id !== id);
        if (rest.length) next.set(key, rest);
        else next.delete(key);
        await this.save(next);
        return { ok: true as const, removed };
      }
      return {
        ok: false as const,
        error: 'not_found' as const,
        message: `no stored permission has id ${JSON.stringify(id)}; list them with \`tandem permissions list\``,
      };
    });
  }

  /** Re-reads the file if it changed on disk since this store last read or wrote it. */
  async refresh(): Promise<void> {
    if ((await this.fingerprint()) !== this.seen) await this.load();
  }

  private async load(): Promise<void> {
    const before = await this.fingerprint();
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      this.byWorkspace = new Map();
      this.seen = before;
      return;
    }
    this.seen = before;
    this.byWorkspace = await this.parse(text);
  }

  private async parse(text: string): Promise<Map<string, StoredPermission[]>> {
    const out = new Map<string, StoredPermission[]>();
    const parsed = await parseStoredJson(this.file, text, this.clock.now(), 'no stored permissions');
    if ('warning' in parsed) {
      this.warnings.push(parsed.warning);
      return out;
    }
    const data = parsed.data;
    const workspaces = (data as Partial<PermissionsFile> | null)?.workspaces;
    if (typeof workspaces !== 'object' || workspaces === null) {
      if (text.trim() !== '') this.warnings.push(`${this.file} has no "workspaces" object; started with no stored permissions`);
      return out;
    }
    for (const [key, list] of Object.entries(workspaces)) {
      const rules: StoredPermission[] = [];
      for (const entry of Array.isArray(list) ? list : []) {
        const parsed = StoredPermissionSchema.safeParse({ ...(entry as object), workspace: key });
        if (parsed.success) rules.push(parsed.data);
        else this.warnings.push(`skipped an invalid stored permission for ${key}: ${JSON.stringify(entry)}`);
      }
      if (rules.length) out.set(key, rules);
    }
    return out;
  }

  private async save(next: Map<string, StoredPermission[]>): Promise<void> {
    const data: PermissionsFile = { version: 1, workspaces: Object.fromEntries([...next].sort(([a], [b]) => a.localeCompare(b))) };
    await writeFileAtomic(this.file, `${JSON.stringify(data, null, 2)}\n`);
    this.byWorkspace = next;
    this.seen = await this.fingerprint();
  }

  private async fingerprint(): Promise<string | null> {
    try {
      const s = await stat(this.file, { bigint: true });
      return `${s.ino}:${s.size}:${s.mtimeNs}`;
    } catch {
      return null;
    }
  }

  /** Runs changes one at a time, so two decisions never write over each other. */
  private exclusive<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task, task);
    this.queue = run.catch(() => {});
    return run;
  }
}
