import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createPathSandbox } from '@tandem/coding-tools';
import { selfCloneTool } from './self-clone.js';
import { makeHarness, type Harness } from '@tandem/coding-tools/testing/tool-harness';

let h: Harness;
beforeEach(async () => {
  h = await makeHarness();
  await h.write('src/index.ts', 'export {};\n');
  await h.write('README.md', '# app\n');
  await h.write('.git/HEAD', 'ref: refs/heads/main\n');
  await h.write('node_modules/dep/index.js', 'x');
  await h.write('dist/index.js', 'x');
  await h.write('packages/a/build/out.js', 'x');
  await h.write('coverage/lcov.info', 'x');
  await fs.symlink('src/index.ts', path.join(h.workspace, 'entry.ts'));
});
afterEach(async () => {
  await h.cleanup();
});

async function tree(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await fs.readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isDirectory()) out.push(path.relative(dir, path.join(entry.parentPath, entry.name)));
  }
  return out.sort();
}

describe('self_clone', () => {
  it('copies the workspace outside it, skipping dependencies and build outputs, and reports totals', async () => {
    const target = path.join(h.outside, 'copy');
    const result = await h.run(selfCloneTool, { target });
    expect(result.isError).toBe(false);
    expect(result.output).toMatch(/^Copied 3 files \(\d+ B\) and 1 symbolic link\(s\) from .* to .*copy; skipped 4 directories/);
    expect(await tree(target)).toEqual(['.git/HEAD', 'README.md', 'entry.ts', 'src/index.ts']);
    expect(await fs.readlink(path.join(target, 'entry.ts'))).toBe('src/index.ts');
    expect(await fs.readFile(path.join(target, 'src/index.ts'), 'utf8')).toBe('export {};\n');
  });

  it('copies everything with include_all', async () => {
    const target = path.join(h.outside, 'all');
    await h.run(selfCloneTool, { target, include_all: true });
    const files = await tree(target);
    expect(files).toContain('node_modules/dep/index.js');
    expect(files).toContain('packages/a/build/out.js');
  });

  it('refuses a target inside the workspace, a non-empty directory, and protected locations', async () => {
    expect((await h.run(selfCloneTool, { target: 'sub/copy' })).output).toMatch(/inside the workspace/);
    await fs.writeFile(path.join(h.outside, 'occupied'), '');
    expect((await h.run(selfCloneTool, { target: h.outside })).output).toMatch(/already exists and is not empty/);
    expect((await h.run(selfCloneTool, { target: '/etc/copy' })).output).toMatch(/system directory/);
    expect((await h.run(selfCloneTool, { target: '~/.ssh/copy' })).output).toMatch(/credential/);
    expect((await h.run(selfCloneTool, { target: path.join(h.dataDir, 'copy') })).output).toMatch(/data directory/);
    expect((await h.run(selfCloneTool, { target: path.dirname(h.workspace) })).isError).toBe(true);
    expect(await fs.readdir(h.outside)).toEqual(['occupied']);
  });

  it('never copies credentials or the data directory out of a workspace that holds them', async () => {
    await fs.mkdir(path.join(h.home, '.ssh'), { recursive: true });
    await fs.writeFile(path.join(h.home, '.ssh', 'id_ed25519'), 'PRIVATE');
    await fs.writeFile(path.join(h.home, '.netrc'), 'machine x password y');
    await fs.writeFile(path.join(h.dataDir, 'tokens.json'), '{}');
    await fs.writeFile(path.join(h.home, 'notes.txt'), 'hi');
    const target = path.join(h.outside, 'home-copy');
    const result = await h.run(selfCloneTool, { target }, { cwd: h.home, paths: createPathSandbox({ workspace: h.home, dataDir: h.dataDir, home: h.home }) });
    expect(result.output).toMatch(/left out 3 path\(s\) the sandbox protects/);
    expect(await tree(target)).toEqual(['notes.txt']);
  });

  it('accepts an existing empty directory', async () => {
    const target = path.join(h.outside, 'empty');
    await fs.mkdir(target);
    expect((await h.run(selfCloneTool, { target })).isError).toBe(false);
  });

  it('refuses to run when the host sandbox cannot check outside targets', async () => {
    const result = await h.run(selfCloneTool, { target: path.join(h.outside, 'x') }, { paths: { resolve: (p, i) => h.sandbox.resolve(p, i) } });
    expect(result.output).toMatch(/self_clone is not available/);
  });
});
