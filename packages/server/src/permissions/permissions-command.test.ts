import { mkdtemp, mkdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PermissionStore } from './permission-store.js';
import { runPermissionsCommand } from './permissions-command.js';
import { workspaceKey } from './workspace-key.js';

let root: string;
let dataDir: string;
let ws: string;
beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'tandem-perm-cli-'));
  dataDir = path.join(root, 'data');
  ws = path.join(root, 'ws');
  await mkdir(ws);
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

function capture() {
  let text = '';
  return { out: { write: (s: string) => (text += s) }, text: () => text };
}

describe('runPermissionsCommand', () => {
  it('lists stored rules by workspace and revokes one by id', async () => {
    const store = await PermissionStore.open({ dataDir });
    const key = await workspaceKey(ws);
    const git = await store.add(key, { tool: 'run_command', match: 'prefix', pattern: 'git', effect: 'allow', by: 'ana' });
    await store.add(key, { tool: 'write_file', match: 'prefix', pattern: `${key}/src/`, effect: 'deny', by: 'bo' });

    const listed = capture();
    expect(await runPermissionsCommand({ dataDir, action: 'list', out: listed.out })).toBe(0);
    expect(listed.text()).toContain(key);
    expect(listed.text()).toMatch(new RegExp(`${git.id}\\s+allow\\s+run_command: commands starting "git"\\s+\\(by ana`));
    expect(listed.text()).toContain(`write_file: anything under ${key}/src/`);

    const revoked = capture();
    expect(await runPermissionsCommand({ dataDir, action: 'revoke', id: git.id, out: revoked.out })).toBe(0);
    expect(revoked.text()).toContain(`revoked ${git.id}`);
    await store.refresh();
    expect(store.rulesFor(key)).toHaveLength(1); // a running server's store sees it

    const again = capture();
    expect(await runPermissionsCommand({ dataDir, action: 'revoke', id: git.id, out: again.out })).toBe(1);
    expect(again.text()).toMatch(/no stored permission has id/);
  });

  it('filters by workspace, prints JSON lines, and explains bad usage', async () => {
    const store = await PermissionStore.open({ dataDir });
    await store.add(await workspaceKey(ws), { tool: 'delete_file', match: 'tool', effect: 'deny', by: 'ana' });
    const json = capture();
    await runPermissionsCommand({ dataDir, action: 'list', workspace: ws, json: true, out: json.out });
    expect(JSON.parse(json.text().trim())).toMatchObject({ tool: 'delete_file', effect: 'deny' });
    const other = capture();
    await runPermissionsCommand({ dataDir, action: 'list', workspace: root, out: other.out });
    expect(other.text()).toMatch(/^no stored permissions for/);
    const usage = capture();
    expect(await runPermissionsCommand({ dataDir, action: 'revoke', out: usage.out })).toBe(2);
    expect(usage.text()).toMatch(/usage: tandem permissions revoke ID/);
  });
});
