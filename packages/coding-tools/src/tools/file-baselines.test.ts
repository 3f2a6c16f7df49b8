import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, type TempDir } from '@tandem/testkit';
import { createFileBaselines, StaleFileError } from './file-baselines.js';

let dir: TempDir;
let file: string;
beforeEach(async () => {
  dir = await makeTempDir('tandem-baselines-');
  file = path.join(dir.path, 'f.txt');
  await fs.writeFile(file, 'one');
});
afterEach(async () => {
  await dir.cleanup();
});

async function reason(promise: Promise<void>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(StaleFileError);
  return (error as StaleFileError).reason;
}

describe('createFileBaselines', () => {
  it('refuses a file never read, accepts it once read, and notices changes, deletion and writes', async () => {
    const baselines = createFileBaselines();
    expect(await reason(baselines.assertFresh(file))).toBe('not_read');
    baselines.recordRead(file, 'one');
    await expect(baselines.assertFresh(file)).resolves.toBeUndefined();

    await fs.writeFile(file, 'two');
    expect(await reason(baselines.assertFresh(file))).toBe('stale');

    baselines.recordWrite(file, 'two');
    await expect(baselines.assertFresh(file)).resolves.toBeUndefined();

    await fs.rm(file);
    expect(await reason(baselines.assertFresh(file))).toBe('deleted');
  });

  it('decides by content, not by modification time', async () => {
    const baselines = createFileBaselines();
    baselines.recordRead(file, Buffer.from('one'));
    const past = new Date('2001-01-01T00:00:00Z');
    await fs.utimes(file, past, past);
    await expect(baselines.assertFresh(file)).resolves.toBeUndefined();
    // Same size, same mtime, different bytes: still stale.
    await fs.writeFile(file, 'uno');
    await fs.utimes(file, past, past);
    expect(await reason(baselines.assertFresh(file))).toBe('stale');
  });

  it('keeps sessions apart', async () => {
    const a = createFileBaselines();
    const b = createFileBaselines();
    a.recordRead(file, 'one');
    expect(await reason(b.assertFresh(file))).toBe('not_read');
  });
});
