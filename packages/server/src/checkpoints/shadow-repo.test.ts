import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ShadowRepo } from './shadow-repo.js';

let root: string;
afterEach(() => rmSync(root, { recursive: true, force: true }));

function setUp(files: Record<string, string>): ShadowRepo {
  root = mkdtempSync(join(tmpdir(), 'tandem-shadow-'));
  const ws = join(root, 'ws');
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(ws, rel, '..'), { recursive: true });
    writeFileSync(join(ws, rel), text);
  }
  mkdirSync(ws, { recursive: true });
  return new ShadowRepo(join(root, 'shadow'), ws, 100);
}

describe('the shadow repository', () => {
  it('leaves out ignored files, files over the size limit and the protected locations; the user’s .git is never read', async () => {
    const repo = setUp({
      'small.txt': 'small\n',
      'big.bin': 'x'.repeat(101),
      '.gitignore': 'ignored.log\n',
      'ignored.log': 'log\n',
      '.mcp.json': '{}',
      '.claude/settings.json': '{}',
      '.git/HEAD': 'ref: refs/heads/main\n',
    });
    await repo.sync();
    const entries = await repo.entriesOf(await repo.writeTree(), ['.']);
    expect([...entries.keys()].sort()).toEqual(['.gitignore', 'small.txt']);
  });

  it('the first snapshot of many files goes in one pass, and still leaves the large ones out; later ones see only changes', async () => {
    const files: Record<string, string> = { 'huge.dat': 'y'.repeat(500) };
    for (let i = 0; i < 600; i++) files[`src/f${i}.ts`] = `export const v = ${i};\n`;
    const repo = setUp(files);
    expect(await repo.sync()).toHaveLength(600);
    const first = await repo.writeTree();
    const entries = await repo.entriesOf(first, ['.']);
    expect(entries.size).toBe(600);
    expect(entries.has('huge.dat')).toBe(false);
    writeFileSync(join(root, 'ws', 'src', 'f7.ts'), 'changed\n');
    writeFileSync(join(root, 'ws', 'new.txt'), 'new\n');
    rmSync(join(root, 'ws', 'src', 'f8.ts'));
    const found = await repo.sync();
    expect(found.map((t) => [t.path, t.before === null ? null : t.before.blob])).toEqual([
      ['new.txt', null],
      ['src/f7.ts', entries.get('src/f7.ts')!.blob],
      ['src/f8.ts', entries.get('src/f8.ts')!.blob],
    ]);
    // What the sync found is exactly the difference between the index's trees before and after.
    const changes = await repo.changes(first, await repo.writeTree());
    expect(changes.map((c) => [c.path, c.before === null, c.after === null])).toEqual([
      ['new.txt', true, false],
      ['src/f7.ts', false, false],
      ['src/f8.ts', false, true],
    ]);
    expect(await repo.sync()).toEqual([]);
  });

  it('answers whether paths are ignored and hashes files through long-lived git processes, and starts them again after close', async () => {
    const repo = setUp({ '.gitignore': '*.log\n!keep.log\n', 'a.log': 'a\n', 'keep.log': 'k\n', 'src/x.ts': 'x\n' });
    expect([...(await repo.ignored(['a.log', 'keep.log', 'src/x.ts', 'missing.log']))].sort()).toEqual(['a.log', 'missing.log']);
    const states = await repo.statesNow(['src/x.ts', 'gone.txt']);
    expect(states.get('gone.txt')).toBeNull();
    const blob = states.get('src/x.ts')!.blob;
    expect((await repo.blob(blob)).toString('utf8')).toBe('x\n');
    repo.close();
    expect((await repo.statesNow(['keep.log'])).get('keep.log')?.mode).toBe('100644');
    expect(await repo.ignored(['b.log'])).toEqual(new Set(['b.log']));
    repo.close();
  });
});
