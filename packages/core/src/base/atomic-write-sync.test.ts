import { mkdir, mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFileAtomicSync } from './atomic-write-sync.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'tandem-atomic-sync-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('writeFileAtomicSync', () => {
  it('writes a new file and replaces an old one, mode 0600, leaving no temp file', async () => {
    const file = path.join(dir, 'a.json');
    writeFileAtomicSync(file, 'one\n');
    writeFileAtomicSync(file, Buffer.from('two\n'));
    expect(await readFile(file, 'utf8')).toBe('two\n');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await readdir(dir)).toEqual(['a.json']);
  });

  it('on a failed rename throws, removes its temp file and leaves the target as it was', async () => {
    const target = path.join(dir, 'taken');
    await mkdir(path.join(target, 'inside'), { recursive: true });
    expect(() => writeFileAtomicSync(target, 'text')).toThrow();
    expect(await readdir(dir)).toEqual(['taken']);
    expect(await readdir(target)).toEqual(['inside']);
  });
});
