import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, type TempDir } from '@tandem/testkit';
import { createPathSandbox } from './path-sandbox.js';
import { openVerified, readVerified, SYNC_READ_MAX_BYTES, writeVerified } from './safe-open.js';
import { SandboxError } from '@tandem/core';

let root: TempDir;
let workspace: string;
let outside: string;

beforeEach(async () => {
  root = await makeTempDir('tandem-race-');
  workspace = path.join(root.path, 'ws');
  outside = path.join(root.path, 'outside');
  await fs.mkdir(path.join(workspace, 'sub'), { recursive: true });
  await fs.mkdir(outside);
  await fs.writeFile(path.join(workspace, 'sub', 'file.txt'), 'inside');
  await fs.writeFile(path.join(outside, 'file.txt'), 'outside original');
});

afterEach(async () => {
  await root.cleanup();
});

describe('check-then-use race', () => {
  it('refuses when the file itself is swapped for a symlink after the check (O_NOFOLLOW)', async () => {
    const sandbox = createPathSandbox({ workspace, dataDir: path.join(root.path, 'data') });
    const checked = await sandbox.resolve('sub/file.txt', 'write');
    // The swap happens between the check and the use.
    await fs.rm(checked);
    await fs.symlink(path.join(outside, 'file.txt'), checked);
    const error = await writeVerified(checked, 'pwned').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SandboxError);
    expect((error as SandboxError).rule).toBe('symlink_swapped');
    await expect(readVerified(checked)).rejects.toBeInstanceOf(SandboxError);
    expect(await fs.readFile(path.join(outside, 'file.txt'), 'utf8')).toBe('outside original');
  });

  it('refuses when a parent directory is swapped for a symlink after the check (descriptor path re-verified)', async () => {
    const sandbox = createPathSandbox({ workspace, dataDir: path.join(root.path, 'data') });
    const checked = await sandbox.resolve('sub/file.txt', 'write');
    await fs.rename(path.join(workspace, 'sub'), path.join(workspace, 'sub-moved'));
    await fs.symlink(outside, path.join(workspace, 'sub'));
    const error = await writeVerified(checked, 'pwned').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SandboxError);
    expect((error as SandboxError).rule).toBe('symlink_swapped');
    expect(await fs.readFile(path.join(outside, 'file.txt'), 'utf8')).toBe('outside original');
    await expect(readVerified(checked)).rejects.toBeInstanceOf(SandboxError);
  });

  it('refuses a FIFO swapped in for the file without blocking on it', async () => {
    const { execFileSync } = await import('node:child_process');
    const file = path.join(workspace, 'sub', 'file.txt');
    await fs.rm(file);
    execFileSync('mkfifo', [file]);
    await expect(readVerified(file)).rejects.toThrow(/not a regular file/);
  });

  it('reads and writes normally when nothing was swapped, truncating only after verification', async () => {
    const file = path.join(workspace, 'sub', 'file.txt');
    await writeVerified(file, 'new');
    expect((await readVerified(file)).toString()).toBe('new');
    const handle = await openVerified(path.join(workspace, 'sub', 'created.txt'), 'write');
    await handle.close();
    expect(await fs.readFile(path.join(workspace, 'sub', 'created.txt'), 'utf8')).toBe('');
  });

  it('reads a file over the synchronous size whole, and refuses it the same way when a parent is swapped', async () => {
    const big = 'x'.repeat(SYNC_READ_MAX_BYTES + 10);
    const file = path.join(workspace, 'sub', 'big.txt');
    await fs.writeFile(file, big);
    await fs.writeFile(path.join(outside, 'big.txt'), 'outside big');
    expect((await readVerified(file)).toString()).toBe(big);
    await fs.rename(path.join(workspace, 'sub'), path.join(workspace, 'sub-moved'));
    await fs.symlink(outside, path.join(workspace, 'sub'));
    const error = await readVerified(file).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SandboxError);
    expect((error as SandboxError).rule).toBe('symlink_swapped');
  });
});
