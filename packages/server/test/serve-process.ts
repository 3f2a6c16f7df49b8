import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { TOKENS } from './server-harness.js';

const repoRoot = resolve(import.meta.dirname, '../../..');

/** A real `tandem serve` process: what crash and fault tests kill with SIGKILL. */
export interface ServeProcess {
  child: ChildProcess;
  /** From its first stdout line, `tandem listening on URL`. */
  url: string;
}

export interface ServeProcessOptions {
  /** Flags after `serve --port 0` (`--data-dir`, `--redis`, …). */
  args: string[];
  /** Over this process's environment, the test tokens and `TANDEM_MODEL=openai/fake-model`: the provider's (the fake model server's). */
  env: NodeJS.ProcessEnv;
  /** A bundle from serve-bundle.ts (quicker to start); else the source through tsx. */
  bundle?: string | undefined;
  /** Where the child is recorded, for the test's clean-up to kill it. */
  children: ChildProcess[];
}

/**
 * Starts `tandem serve --port 0 …` with the test tokens; resolves with its URL once it prints
 * the listening line, or rejects with its stderr when it exits first.
 */
export async function startServeProcess(options: ServeProcessOptions): Promise<ServeProcess> {
  const entry = options.bundle ? [options.bundle] : ['--conditions=tandem-source', '--import', 'tsx', 'packages/server/src/bin.ts'];
  const child = spawn(process.execPath, [...entry, 'serve', '--port', '0', ...options.args], {
    cwd: repoRoot,
    env: { ...process.env, TANDEM_TOKEN: TOKENS.control, TANDEM_VIEW_TOKEN: TOKENS.view, TANDEM_MODEL: 'openai/fake-model', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  options.children.push(child);
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const line = await new Promise<string>((ok, fail) => {
    createInterface({ input: child.stdout! }).once('line', ok);
    child.once('exit', (code) => fail(new Error(`tandem serve exited with ${code}: ${stderr}`)));
  });
  return { child, url: line.slice('tandem listening on '.length) };
}
