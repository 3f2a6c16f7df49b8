import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TempDir {
  /** The directory's real path (symlinks such as /tmp on macOS resolved). */
  readonly path: string;
  cleanup(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/** Creates a fresh directory under the OS temp dir; `cleanup()` removes it and everything in it. */
export async function makeTempDir(prefix = 'tandem-test-'): Promise<TempDir> {
  const path = await realpath(await mkdtemp(join(tmpdir(), prefix)));
  const cleanup = () => rm(path, { recursive: true, force: true });
  return { path, cleanup, [Symbol.asyncDispose]: cleanup };
}
