import { mkdtemp, mkdir, readFile, readdir, rm, stat, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PermissionStore } from './permission-store.js';
import { workspaceKey } from './workspace-key.js';

let dataDir: string;
let ws: string;

beforeEach(async () => {
  const root = await mkdtemp(path.join(os.tmpdir(), 'tandem-perm-store-'));
  dataDir = path.join(root, 'data');
  ws = path.join(root, 'project');
  await mkdir(ws, { recursive: true });
});
afterEach(async () => {
  await rm(path.dirname(dataDir), { recursive: true, force: true });
});

describe('PermissionStore', () => {
  it('keeps forever decisions across a new store on the same data dir', async () => {
    const key = await workspaceKey(ws);
    const first = await PermissionStore.open({ dataDir });
    const allow = await first.add(key, { tool: 'run_command', match: 'prefix', pattern: 'git', effect: 'allow', by: 'ana' });
    await first.add(key, { tool: 'delete_file', match: 'tool', effect: 'deny', by: 'bo' });

    const second = await PermissionStore.open({ dataDir });
    expect(second.rulesFor(key)).toEqual([
      expect.objectContaining({ id: allow.id, tool: 'run_command', pattern: 'git', effect: 'allow', by: 'ana', workspace: key }),
      expect.objectContaining({ tool: 'delete_file', match: 'tool', effect: 'deny', by: 'bo' }),
    ]);
    expect((await stat(first.file)).mode & 0o777).toBe(0o600);
    expect(await readdir(dataDir)).toEqual(['permissions.json']); // no temp files left behind
  });

  it('files decisions under the real path, so a symlinked checkout shares them', async () => {
    const link = path.join(path.dirname(ws), 'link');
    await symlink(ws, link);
    const store = await PermissionStore.open({ dataDir });
    await store.add(await workspaceKey(link), { tool: 'write_file', match: 'tool', effect: 'allow', by: 'ana' });
    expect(await store.list(ws)).toHaveLength(1);
    expect(await store.list(path.join(path.dirname(ws), 'elsewhere'))).toEqual([]);
  });

  it('revokes by id, and says not_found for an unknown id', async () => {
    const key = await workspaceKey(ws);
    const store = await PermissionStore.open({ dataDir });
    const rule = await store.add(key, { tool: 'run_command', match: 'exact', pattern: 'make', effect: 'allow', by: 'ana' });
    expect(await store.revoke(rule.id)).toMatchObject({ ok: true, removed: { id: rule.id } });
    expect(await store.revoke(rule.id)).toMatchObject({ ok: false, error: 'not_found' });
    expect((await PermissionStore.open({ dataDir })).rulesFor(key)).toEqual([]);
  });

  it('replaces an identical rule instead of piling up duplicates', async () => {
    const key = await workspaceKey(ws);
    const store = await PermissionStore.open({ dataDir });
    await store.add(key, { tool: 'run_command', match: 'exact', pattern: 'ls', effect: 'allow', by: 'ana' });
    await store.add(key, { tool: 'run_command', match: 'exact', pattern: 'ls', effect: 'allow', by: 'bo' });
    expect(store.rulesFor(key)).toEqual([expect.objectContaining({ by: 'bo' })]);
  });

  it('sees a change another process made (the CLI revoking) before its own next write', async () => {
    const key = await workspaceKey(ws);
    const server = await PermissionStore.open({ dataDir });
    const rule = await server.add(key, { tool: 'run_command', match: 'exact', pattern: 'make', effect: 'allow', by: 'ana' });
    const cli = await PermissionStore.open({ dataDir });
    await cli.revoke(rule.id);
    await server.add(key, { tool: 'run_command', match: 'exact', pattern: 'ls', effect: 'allow', by: 'ana' });
    const rules = (await PermissionStore.open({ dataDir })).rulesFor(key);
    expect(rules.map((r) => r.pattern)).toEqual(['ls']);
  });

  it('survives a damaged file: keeps a copy aside, skips bad entries, reports both', async () => {
    await mkdir(dataDir, { recursive: true });
    await writeFile(path.join(dataDir, 'permissions.json'), '{"workspaces": {"/w": [');
    const broken = await PermissionStore.open({ dataDir });
    expect(await broken.list()).toEqual([]);
    expect(broken.warnings[0]).toMatch(/not valid JSON.*kept a copy/);
    expect((await readdir(dataDir)).some((f) => f.startsWith('permissions.json.corrupt-'))).toBe(true);

    await writeFile(
      path.join(dataDir, 'permissions.json'),
      JSON.stringify({
        version: 1,
        workspaces: { '/w': [{ id: 'a', tool: 'x', match: 'tool', effect: 'allow', by: 'ana', createdAt: 't' }, { nonsense: true }] },
      }),
    );
    const partial = await PermissionStore.open({ dataDir });
    expect(partial.rulesFor('/w')).toHaveLength(1);
    expect(partial.warnings.join('\n')).toMatch(/skipped an invalid stored permission/);
  });

  it('writes concurrent decisions one after the other without losing any', async () => {
    const key = await workspaceKey(ws);
    const store = await PermissionStore.open({ dataDir });
    await Promise.all(
      Array.from({ length: 10 }, (_, i) => store.add(key, { tool: 'run_command', match: 'exact', pattern: `cmd ${i}`, effect: 'allow', by: 'ana' })),
    );
    const onDisk = JSON.parse(await readFile(store.file, 'utf8')) as { workspaces: Record<string, unknown[]> };
    expect(onDisk.workspaces[key]).toHaveLength(10);
  });
});
