import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { readServerInfo, serverNodeFlags, type ServerInfo } from '@tandem/server/local';
import { serverAnswers } from './server-probe.js';
import { trustedCa } from './trusted-ca.js';

export const SERVER_OUT_FILE = 'server.out';

export interface LocalServerOptions {
  dataDir: string;
  port: number;
  /** Interface to listen on (default the server's, 127.0.0.1). */
  host?: string | undefined;
  /** How long to wait for a background server to come up. */
  startTimeoutMs?: number;
  /** The command that runs `tandem serve`; default: this same program. */
  command?: { file: string; args: string[] };
  /** Serve HTTPS with these files (a restart keeps the previous server's). */
  tls?: { cert: string; key: string } | undefined;
}

/** The server recorded in the data dir, if its process lives and it answers. */
export async function findRunningServer(dataDir: string): Promise<ServerInfo | undefined> {
  const info = await readServerInfo(dataDir);
  if (!info) return undefined;
  return (await serverAnswers(info.url, 2000, await localCa(info))) ? info : undefined;
}

/** What a local client trusts for the local server: its own certificate when it serves HTTPS (self-signed included). */
export async function localCa(info: ServerInfo): Promise<string[] | undefined> {
  if (!info.tls) return undefined;
  return trustedCa(info.tls.cert, "the local server's certificate").catch(() => undefined);
}

/**
 * Finds the local server or starts one in the background, as tmux does: detached, output to
 * `<dataDir>/server.out`, and waits until it records itself in server.json and answers.
 */
export async function ensureLocalServer(options: LocalServerOptions): Promise<{ info: ServerInfo; started: boolean }> {
  const running = await findRunningServer(options.dataDir);
  if (running) return { info: running, started: false };
  return { info: await startBackgroundServer(options), started: true };
}

export async function startBackgroundServer(options: LocalServerOptions): Promise<ServerInfo> {
  await mkdir(options.dataDir, { recursive: true, mode: 0o700 });
  const outPath = join(options.dataDir, SERVER_OUT_FILE);
  const command = options.command ?? thisProgram();
  const out = openSync(outPath, 'a');
  let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  let child;
  try {
    const host = options.host ? ['--host', options.host] : [];
    const tls = options.tls ? ['--tls-cert', options.tls.cert, '--tls-key', options.tls.key] : [];
    child = spawn(command.file, [...command.args, 'serve', ...host, ...tls, '--port', String(options.port), '--data-dir', options.dataDir], {
      detached: true,
      stdio: ['ignore', out, out],
      // This shell's environment (so a restart picks up new keys), but not its folder: the
      // server outlives it, and each session names its own workspace.
      env: process.env,
      cwd: homedir(),
    });
  } finally {
    closeSync(out);
  }
  child.once('exit', (code, signal) => {
    exit = { code, signal };
  });
  child.once('error', () => {
    exit = { code: null, signal: null };
  });
  child.unref();

  const deadline = Date.now() + (options.startTimeoutMs ?? 60_000);
  while (Date.now() < deadline) {
    if (exit) break;
    const info = await readServerInfo(options.dataDir);
    if (info && info.pid === child.pid && (await serverAnswers(info.url, 2000, await localCa(info)))) return info;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const why = exit
    ? `it exited (${exit.signal ? `signal ${exit.signal}` : `code ${exit.code}`})`
    : `it did not answer within ${Math.round((options.startTimeoutMs ?? 60_000) / 1000)} s`;
  if (!exit && child.pid) {
    try {
      process.kill(child.pid);
    } catch {
      // already gone
    }
  }
  throw new Error(`could not start the tandem server in the background: ${why}. See ${outPath}${tail(outPath)}`);
}

/** Re-runs this same entry point (dist, or the TypeScript source under tsx) with `serve`, and the server's V8 flags. */
function thisProgram(): { file: string; args: string[] } {
  const script = process.argv[1];
  if (!script) throw new Error('cannot tell which script is running; start the server yourself with `tandem serve`');
  return { file: process.execPath, args: [...serverNodeFlags(process.execArgv), ...process.execArgv, script] };
}

function tail(path: string): string {
  try {
    const lines = readFileSync(path, 'utf8').trimEnd().split('\n').slice(-5);
    return lines.length > 0 && lines[0] !== '' ? `; last lines:\n  ${lines.join('\n  ')}` : '';
  } catch {
    return '';
  }
}
