import { chmod, mkdir, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/** `$TANDEM_DATA_DIR`, else `~/.tandem`. */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.TANDEM_DATA_DIR ? resolve(env.TANDEM_DATA_DIR) : join(homedir(), '.tandem');
}

/** Creates the data directory with mode 0700 if it does not exist; an existing one is left as it is. */
export async function ensureDataDir(dir: string): Promise<void> {
  const existing = await stat(dir).catch(() => undefined);
  if (existing) {
    if (!existing.isDirectory()) throw new Error(`data directory ${dir} exists but is not a directory; pass another --data-dir`);
    return;
  }
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await chmod(dir, 0o700);
}
