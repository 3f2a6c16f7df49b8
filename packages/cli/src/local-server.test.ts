import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeTempDir } from '@tandem/testkit';
import { describe, expect, it } from 'vitest';
import { findRunningServer, SERVER_OUT_FILE, startBackgroundServer } from './local-server.js';

describe('findRunningServer', () => {
  it('ignores a missing, stale or silent server.json', async () => {
    await using dir = await makeTempDir();
    expect(await findRunningServer(dir.path)).toBeUndefined();
    // A pid that is surely gone.
    await writeFile(join(dir.path, 'server.json'), JSON.stringify({ url: 'http://127.0.0.1:9', pid: 2 ** 22 + 1, startedAt: 'x' }));
    expect(await findRunningServer(dir.path)).toBeUndefined();
    // Our own live pid, but nothing answers at the url.
    await writeFile(join(dir.path, 'server.json'), JSON.stringify({ url: 'http://127.0.0.1:9', pid: process.pid, startedAt: 'x' }));
    expect(await findRunningServer(dir.path)).toBeUndefined();
  });
});

describe('startBackgroundServer', () => {
  it('says where to look when the server dies on start', async () => {
    await using dir = await makeTempDir();
    const failing = { file: process.execPath, args: ['-e', 'console.error("port 7777 is taken"); process.exit(3)', '--'] };
    const error = await startBackgroundServer({ dataDir: dir.path, port: 7777, command: failing }).then(
      () => new Error('expected a failure'),
      (err: unknown) => err as Error,
    );
    expect(error).toBeInstanceOf(Error);
    expect(error.message).toContain('exited (code 3)');
    expect(error.message).toContain(join(dir.path, SERVER_OUT_FILE));
    expect(error.message).toContain('port 7777 is taken');
    await expect(readFile(join(dir.path, SERVER_OUT_FILE), 'utf8')).resolves.toContain('port 7777 is taken');
  });

  it('gives up after the timeout when the server never answers', async () => {
    await using dir = await makeTempDir();
    const silent = { file: process.execPath, args: ['-e', 'setTimeout(() => {}, 60000)', '--'] };
    const started = Date.now();
    const error = await startBackgroundServer({ dataDir: dir.path, port: 1, command: silent, startTimeoutMs: 800 }).then(
      () => new Error('expected a failure'),
      (err: unknown) => err as Error,
    );
    expect(error.message).toMatch(/did not answer within 1 s/);
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
