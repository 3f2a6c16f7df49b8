import { existsSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { webViewerDir } from '../web/serve-web.js';
import { TOKEN_FILE, VIEW_TOKEN_FILE } from './tokens.js';

/**
 * The line `tandem serve` prints after `tandem listening on …`: where the web viewer is and how
 * to get in. The tokens are secrets (files of mode 0600): the line says where each one is (the
 * environment variable the server was started with, or the command that shows the file), never
 * the token itself.
 */
export function webViewerLine(url: string, dataDir: string, env: NodeJS.ProcessEnv): string {
  if (!existsSync(join(webViewerDir(env), 'index.html'))) {
    return `web viewer: not built (run \`pnpm build\` in the Tandem checkout); clients connect to ${url} as usual`;
  }
  const control = env.TANDEM_TOKEN?.trim() ? '$TANDEM_TOKEN' : `\`cat ${join(dataDir, TOKEN_FILE)}\``;
  const view = env.TANDEM_VIEW_TOKEN?.trim() ? '$TANDEM_VIEW_TOKEN' : `\`cat ${join(dataDir, VIEW_TOKEN_FILE)}\``;
  return `web viewer: ${pageUrl(url)} (paste a token into the page: the view token watches, ${view}; the control token drives, ${control})`;
}

/** The page's address; a server listening on every address (0.0.0.0, ::) is reached by this machine's name. */
function pageUrl(url: string): string {
  const parsed = new URL(url);
  if (parsed.hostname === '0.0.0.0' || parsed.hostname === '[::]') parsed.hostname = hostname();
  return parsed.href;
}
