import type { SessionInfo } from '@tandem/shared';
import { findRunningServer, startBackgroundServer } from '../local-server.js';
import { hostOf, portOf, stopServer } from '../stop-server.js';
import { withClient } from './with-client.js';

export interface LifecycleOptions {
  dataDir: string;
  /** Stop even while turns run (they end as interrupted). */
  force?: boolean | undefined;
  /** Port for a server started when none ran (restart). */
  port: number;
  out?: NodeJS.WritableStream;
  err?: NodeJS.WritableStream;
}

/**
 * `tandem stop`: stops the local background server of the data dir with SIGTERM and waits
 * until its process is gone. Refused while a turn runs unless --force, naming the sessions.
 */
export async function stopLocal(options: LifecycleOptions): Promise<number> {
  const out = options.out ?? process.stdout;
  const info = await findRunningServer(options.dataDir);
  if (!info) {
    out.write(`no tandem server is running for ${options.dataDir}; nothing to stop\n`);
    return 0;
  }
  const refusal = await refuseWhileRunning(options, 'stop');
  if (refusal) return refusal;
  await stopServer(info);
  out.write(`stopped the tandem server at ${info.url} (pid ${info.pid})\n`);
  return 0;
}

/**
 * `tandem restart`: stops the local server like `stop`, then starts a new one in the
 * background on the same address and port with this shell's environment (attached terminals
 * reconnect).
 */
export async function restartLocal(options: LifecycleOptions): Promise<number> {
  const out = options.out ?? process.stdout;
  const info = await findRunningServer(options.dataDir);
  let port = options.port;
  let host: string | undefined;
  let tls: { cert: string; key: string } | undefined;
  if (info) {
    const refusal = await refuseWhileRunning(options, 'restart');
    if (refusal) return refusal;
    await stopServer(info);
    port = portOf(info.url) ?? port;
    host = hostOf(info.url);
    tls = info.tls;
  }
  const started = await startBackgroundServer({ dataDir: options.dataDir, port, host, tls });
  out.write(
    info
      ? `restarted the tandem server: ${started.url} (pid ${started.pid}, was ${info.pid}); attached terminals reconnect by themselves\n`
      : `no tandem server was running for ${options.dataDir}; started one at ${started.url} (pid ${started.pid})\n`,
  );
  return 0;
}

/** Exit code 1 with a message when turns run and --force was not given; undefined to go ahead. */
async function refuseWhileRunning(options: LifecycleOptions, verb: 'stop' | 'restart'): Promise<number | undefined> {
  const err = options.err ?? process.stderr;
  const { sessions } = await withClient({ dataDir: options.dataDir, viewer: true }, verb, (client) => client.request('session:list', {}));
  const running = sessions.filter((s) => s.status !== 'idle');
  if (running.length === 0) return undefined;
  if (options.force) {
    err.write(`tandem: ${verb === 'stop' ? 'stopping' : 'restarting'} anyway; these turns end as interrupted: ${running.map(describe).join('; ')}\n`);
    return undefined;
  }
  err.write(
    `tandem: not ${verb === 'stop' ? 'stopping' : 'restarting'}: ${running.length === 1 ? 'a turn is' : `${running.length} turns are`} running in ${running.map(describe).join('; ')}. ` +
      `Wait for ${running.length === 1 ? 'it' : 'them'} to end, or run \`tandem ${verb} --force\` (the turn${running.length === 1 ? '' : 's'} will end as interrupted)\n`,
  );
  return 1;
}

function describe(session: SessionInfo): string {
  return `${session.id.slice(0, 8)} (${session.title}, ${session.cwd}, ${session.status === 'waiting_permission' ? 'waiting for a permission answer' : 'running'})`;
}
