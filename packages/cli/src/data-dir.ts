import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/**
 * `$TANDEM_DATA_DIR`, else `~/.tandem`: the same rule as @tandem/server's `defaultDataDir`
 * (data-dir.test.ts holds them equal), here so that choosing the directory does not import
 * the whole server.
 */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.TANDEM_DATA_DIR ? resolve(env.TANDEM_DATA_DIR) : join(homedir(), '.tandem');
}
