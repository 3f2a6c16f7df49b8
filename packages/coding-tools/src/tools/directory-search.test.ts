import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { getFileInfoTool, listDirectoryTool } from './directory-tools.js';
import { grepFilesTool } from './grep-files.js';
import { searchFilesTool } from './search-files.js';
import { makeHarness, type Harness } from './tool-harness.test-helper.js';

let h: Harness;
beforeEach(async () => {
  h = await makeHarness();
});
afterEach(async () => {
  await h.cleanup();
});

describe('list_directory', () => {
  it('lists sorted entries, marking directories with / and links with @', async () => {
    await h.write('b.txt', '');
    await h.write('a/inner.txt', '');
    await fs.symlink('b.txt', path.join(h.workspace, 'c-link'));
    expect((await h.run(listDirectoryTool, {})).output).toBe('a/\nb.txt\nc-link@');
    expect((await h.run(listDirectoryTool, { path: 'a' })).output).toBe('inner.txt');
  });

  it('shows at most 1000 entries and then the count of the rest', async () => {
    const dir = path.join(h.workspace, 'many');
    await fs.mkdir(dir);
    await Promise.all(Array.from({ length: 1234 }, (_, i) => fs.writeFile(path.join(dir, `f${String(i).padStart(4, '0')}`), '')));
    const lines = (await h.run(listDirectoryTool, { path: 'many' })).output.split('\n');
    expect(lines).toHaveLength(1001);
    expect(lines[999]).toBe('f0999');
    expect(lines[1000]).toBe('… 234 more');
  });

  it('explains a missing path or a file', async () => {
    expect((await h.run(listDirectoryTool, { path: 'nope' })).output).toMatch(/does not exist/);
    await h.write('f.txt', '');
    expect((await h.run(listDirectoryTool, { path: 'f.txt' })).output).toMatch(/is a file, not a directory/);
    expect((await h.run(listDirectoryTool, { path: '/etc' })).output).toMatch(/system directory/);
  });
});

describe('get_file_info', () => {
  it('reports type, size, octal mode and modification time', async () => {
    const file = await h.write('s.sh', 'hello');
    await fs.chmod(file, 0o750);
    const when = new Date('2024-05-06T07:08:09.000Z');
    await fs.utimes(file, when, when);
    const out = (await h.run(getFileInfoTool, { path: 's.sh' })).output;
    expect(out).toContain('type: file');
    expect(out).toContain('size: 5 bytes');
    expect(out).toContain('mode: 0750');
    expect(out).toContain('modified: 2024-05-06T07:08:09.000Z');
    await fs.symlink('s.sh', path.join(h.workspace, 'link'));
    expect((await h.run(getFileInfoTool, { path: 'link' })).output).toContain('type: symlink');
    await fs.mkdir(path.join(h.workspace, 'd'));
    expect((await h.run(getFileInfoTool, { path: 'd' })).output).toContain('type: directory');
  });
});

describe('search_files', () => {
  it('finds files by glob, skipping .git and node_modules unless asked', async () => {
    for (const file of ['src/a.ts', 'src/deep/b.ts', 'src/c.js', 'node_modules/pkg/index.ts', '.git/hooks/x.ts']) await h.write(file, '');
    expect((await h.run(searchFilesTool, { pattern: '**/*.ts' })).output).toBe('src/a.ts\nsrc/deep/b.ts');
    const all = (await h.run(searchFilesTool, { pattern: '**/*.ts', include_ignored: true })).output.split('\n');
    expect(all).toContain('node_modules/pkg/index.ts');
    expect(all).toContain('.git/hooks/x.ts');
    expect((await h.run(searchFilesTool, { pattern: '*.ts', path: 'src' })).output).toBe('a.ts');
  });

  it('caps the list and refuses patterns that climb out', async () => {
    await Promise.all(Array.from({ length: 520 }, (_, i) => h.write(`gen/f${i}.txt`, '')));
    const out = (await h.run(searchFilesTool, { pattern: 'gen/*.txt' })).output.split('\n');
    expect(out).toHaveLength(501);
    expect(out[500]).toBe('… 20 more (narrow the pattern)');
    expect((await h.run(searchFilesTool, { pattern: '../**' })).output).toMatch(/must not climb/);
    expect((await h.run(searchFilesTool, { pattern: '/etc/*' })).isError).toBe(true);
  });

  it('does not follow a symlinked directory out of the workspace', async () => {
    await fs.writeFile(path.join(h.outside, 'secret.ts'), '');
    await fs.symlink(h.outside, path.join(h.workspace, 'out'));
    expect((await h.run(searchFilesTool, { pattern: '**/*.ts' })).output).toMatch(/^No files match/);
  });
});

describe('grep_files', () => {
  it('prints path:line: text for matches, filtered by glob', async () => {
    await h.write('src/a.ts', 'const x = 1;\n// TODO fix\nconst y = 2;\n');
    await h.write('src/b.md', 'TODO docs\n');
    const result = await h.run(grepFilesTool, { pattern: 'TODO', glob: '*.ts' });
    expect(result.output).toBe('src/a.ts:2: // TODO fix');
    expect((await h.run(grepFilesTool, { pattern: 'todo', case_insensitive: true })).output).toBe('src/a.ts:2: // TODO fix\nsrc/b.md:1: TODO docs');
  });

  it('shows at most 100 matches, then only the count of the rest', async () => {
    await h.write('big.txt', Array.from({ length: 130 }, (_, i) => `match ${i}`).join('\n'));
    await h.write('more.txt', 'match a\nmatch b\n');
    const lines = (await h.run(grepFilesTool, { pattern: '^match' })).output.split('\n');
    expect(lines).toHaveLength(101);
    expect(lines[0]).toBe('big.txt:1: match 0');
    expect(lines[100]).toBe('… 32 more matches not shown (132 in all); narrow the pattern or the glob');
  });

  it('respects .gitignore, nested ones too, and skips .git, node_modules and binary files', async () => {
    await h.write('.gitignore', 'build/\n*.log\n');
    await h.write('pkg/.gitignore', 'generated.ts\n!keep.log\n');
    const searched = ['src/main.ts', 'pkg/real.ts', 'pkg/keep.log'];
    const skipped = ['build/out.js', 'debug.log', 'pkg/generated.ts', '.git/config', 'node_modules/x/index.js'];
    for (const file of [...searched, ...skipped]) await h.write(file, 'needle\n');
    await h.write('image.bin', Buffer.concat([Buffer.from('needle'), Buffer.from([0, 1, 2])]));
    const out = (await h.run(grepFilesTool, { pattern: 'needle' })).output.split('\n').sort();
    expect(out).toEqual(['pkg/keep.log:1: needle', 'pkg/real.ts:1: needle', 'src/main.ts:1: needle']);
    // Searching a subdirectory still honours the root .gitignore.
    await h.write('pkg/sub/x.log', 'needle\n');
    expect((await h.run(grepFilesTool, { pattern: 'needle', path: 'pkg/sub' })).output).toMatch(/^No matches/);
    const everything = (await h.run(grepFilesTool, { pattern: 'needle', include_ignored: true })).output;
    expect(everything).toContain('build/out.js:1: needle');
    expect(everything).toContain('node_modules/x/index.js:1: needle');
    expect(everything).not.toContain('.git/config');
    expect(everything).not.toContain('image.bin');
  });

  it('explains a bad regular expression', async () => {
    const result = await h.run(grepFilesTool, { pattern: '(' });
    expect(result.isError).toBe(true);
    expect(result.output).toMatch(/invalid regular expression/);
  });
});
