import { loadTokens } from '@tandem/server';
import { runTui } from '@tandem/tui';
import { ensureLocalServer } from '../local-server.js';

export interface OpenOptions {
  dataDir: string;
  port: number;
  name: string;
}

/** `tandem`: the TUI on the local server (started in the background if needed), in a session for this directory. */
export async function openLocal(options: OpenOptions): Promise<number> {
  const { info, started } = await ensureLocalServer({ dataDir: options.dataDir, port: options.port });
  if (started) process.stderr.write(`tandem: started a server in the background at ${info.url} (pid ${info.pid})\n`);
  const tokens = await loadTokens(options.dataDir);
  return runTui({ url: info.url, token: tokens.control, name: options.name, cwd: process.cwd() });
}
