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
    const tree = await repo.snapshot();
    const entries = await repo.entriesOf(tree, ['.']);
    expect([...entries.keys()].sort()).toEqual(['.gitignore', 'small.txt']);
  });

  it('the first snapshot of many files goes in one pass, and still leaves the large ones out; later ones see only changes', async () => {
    const files: Record<string, string> = { 'huge.dat': 'y'.repeat(500) };
    for (let i = 0; i < 600; i++) files[`src/f${i}.ts`] = `export const v = ${i};\n`;
    const repo = setUp(files);
    const first = await repo.snapshot();
    const entries = await repo.entriesOf(first, ['.']);
    expect(entries.size).toBe(600);
    expect(entries.has('huge.dat')).toBe(false);
    writeFileSync(join(root, 'ws', 'src', 'f7.ts'), 'changed\n');
    writeFileSync(join(root, 'ws', 'new.txt'), 'new\n');
    const second = await repo.snapshot();
    expect((await repo.changes(first, second)).map((c) => [c.path, c.before === null, c.after === null])).toEqual([
      ['new.txt', true, false],
      ['src/f7.ts', false, false],
    ]);
  });
});
