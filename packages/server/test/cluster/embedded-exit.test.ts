import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { makeTempDir } from '@tandem/testkit';
import { clusterPrefix } from './cluster-harness.js';
import { startRedis } from './redis-process.js';

const redis = await startRedis();
afterAll(() => redis?.stop());
const repoRoot = resolve(import.meta.dirname, '../../../..');

describe.skipIf(!redis)('a program embedding a cluster node', () => {
  it('exits by itself after closing the application, even when Redis stops right after', async () => {
    const dataDir = await makeTempDir('tandem-embedded-');
    let child: ReturnType<typeof spawn> | undefined;
    try {
      child = spawn(
        process.execPath,
        ['--conditions=tandem-source', '--import', 'tsx', 'packages/server/test/cluster/embedded-node-main.ts', redis!.url, dataDir.path, clusterPrefix()],
        { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let stderr = '';
      const started = child;
      started.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const exited = new Promise<number | null>((ok) => started.once('exit', ok));
      const line = await new Promise<string>((ok, fail) => {
        createInterface({ input: started.stdout! }).once('line', ok);
        void exited.then((code) => fail(new Error(`exited with ${code} before closing: ${stderr}`)));
      });
      expect(line).toBe('closed');
      // The adapter's stream reader was blocked in XREAD when the app closed; with Redis gone it
      // used to retry for ever and keep the process alive (the bench never finished).
      await redis!.stop();
      expect(await exited).toBe(0);
      await redis!.start();
    } finally {
      if (child?.exitCode === null) child.kill('SIGKILL');
      await dataDir.cleanup();
    }
  });
});
