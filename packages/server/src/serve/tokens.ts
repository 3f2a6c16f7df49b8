import { randomBytes } from 'node:crypto';
import { chmod, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Tokens } from '../auth.js';

export const TOKEN_FILE = 'token';
export const VIEW_TOKEN_FILE = 'view-token';

/**
 * The control and view tokens: `TANDEM_TOKEN` / `TANDEM_VIEW_TOKEN` when set, else the ones
 * kept in `<dataDir>/token` and `<dataDir>/view-token`, generated once (mode 0600).
 */
export async function loadTokens(dataDir: string, env: NodeJS.ProcessEnv = process.env): Promise<Tokens> {
  const control = env.TANDEM_TOKEN?.trim() || (await storedToken(join(dataDir, TOKEN_FILE)));
  const view = env.TANDEM_VIEW_TOKEN?.trim() || (await storedToken(join(dataDir, VIEW_TOKEN_FILE)));
  if (control === view) throw new Error('the control and view tokens are the same; set different TANDEM_TOKEN and TANDEM_VIEW_TOKEN');
  return { control, view };
}

async function storedToken(path: string): Promise<string> {
  const existing = await readFile(path, 'utf8').then(
    (text) => text.trim(),
    () => '',
  );
  if (existing) return existing;
  const token = randomBytes(24).toString('base64url');
  await writeFile(path, `${token}\n`, { mode: 0o600, flag: 'w' });
  await chmod(path, 0o600);
  return token;
}
