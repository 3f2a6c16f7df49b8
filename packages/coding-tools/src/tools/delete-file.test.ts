import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deleteFileTool } from './delete-file.js';
import { makeHarness, type Harness } from './tool-harness.test-helper.js';

let h: Harness;
beforeEach(async () => {
  h = await makeHarness();
});
afterEach(async () => {
  await h.cleanup();
});

const exists = (p: string) =>
  fs.lstat(p).then(
    () => true,
    () => false,
  );

describe('delete_file', () => {
  it('deletes a file, and an empty directory', async () => {
    const file = await h.write('a.txt', 'x');
    expect((await h.run(deleteFileTool, { path: 'a.txt' })).output).toBe('Deleted file a.txt.');
    expect(await exists(file)).toBe(false);
    await fs.mkdir(path.join(h.workspace, 'empty'));
    expect((await h.run(deleteFileTool, { path: 'empty/' })).isError).toBe(false);
    expect(await exists(path.join(h.workspace, 'empty'))).toBe(false);
  });

  it('needs recursive for a non-empty directory', async () => {
    await h.write('dir/a.txt', 'x');
    await h.write('dir/sub/b.txt', 'x');
    const refused = await h.run(deleteFileTool, { path: 'dir' });
    expect(refused.output).toMatch(/directory with 2 entries; pass recursive: true/);
    const done = await h.run(deleteFileTool, { path: 'dir', recursive: true });
    expect(done.output).toBe('Deleted directory dir (2 files, 1 subdirectories).');
    expect(await exists(path.join(h.workspace, 'dir'))).toBe(false);
  });

  it('refuses .git, anything inside it, directories holding a repository, and the workspace', async () => {
    await h.write('.git/HEAD', 'ref');
    await h.write('vendor/lib/.git/HEAD', 'ref');
    for (const p of ['.git', '.git/HEAD', './.git/']) {
      const result = await h.run(deleteFileTool, { path: p, recursive: true });
      // Refused by delete_file's own .git rule, or earlier by the sandbox (`.git` is where a repository's hooks live).
      expect(result.output, p).toMatch(/\.git directories and everything in them are protected|\.git is protected: .*\[sandbox rule: protected_path\]/);
      expect(existsSync(path.join(h.workspace, '.git', 'HEAD'))).toBe(true);
    }
    expect((await h.run(deleteFileTool, { path: 'vendor', recursive: true })).output).toMatch(/contains the git repository data vendor\/lib\/\.git/);
    expect((await h.run(deleteFileTool, { path: '.', recursive: true })).isError).toBe(true);
    expect((await h.run(deleteFileTool, { path: h.workspace, recursive: true })).output).toMatch(/workspace/);
    expect(await exists(path.join(h.workspace, '.git/HEAD'))).toBe(true);
    expect(await exists(path.join(h.workspace, 'vendor/lib/.git/HEAD'))).toBe(true);
  });

  it('deletes a symlink itself, never what it points to', async () => {
    const target = path.join(h.outside, 'keep.txt');
    await fs.writeFile(target, 'keep');
    await fs.symlink(target, path.join(h.workspace, 'link'));
    expect((await h.run(deleteFileTool, { path: 'link' })).output).toBe('Deleted symbolic link link.');
    expect(await fs.readFile(target, 'utf8')).toBe('keep');
  });

  it('refuses paths outside the sandbox', async () => {
    await fs.writeFile(path.join(h.outside, 'x'), '');
    expect((await h.run(deleteFileTool, { path: path.join(h.outside, 'x') })).output).toMatch(/outside the workspace/);
    expect((await h.run(deleteFileTool, { path: '../outside/x' })).output).toMatch(/climbs out/);
    expect((await h.run(deleteFileTool, { path: 'missing' })).output).toMatch(/does not exist/);
    expect(await exists(path.join(h.outside, 'x'))).toBe(true);
  });
});
