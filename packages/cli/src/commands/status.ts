import type { CommandResult } from '@tandem/shared';
import { paintFor } from '../color.js';
import { resolveConnection } from '../connection-args.js';
import { envMismatch } from '../env-check.js';
import { findRunningServer } from '../local-server.js';
import { withClient } from './with-client.js';

export type ServerStatus = CommandResult<'server:status'>;

export interface StatusOptions {
  url?: string | undefined;
  token?: string | undefined;
  /** `--port N`: the server on this machine's port N. */
  port?: number | undefined;
  json?: boolean | undefined;
  dataDir: string;
  out?: NodeJS.WritableStream;
  env?: NodeJS.ProcessEnv;
}

/**
 * `tandem status`: the local server of the data dir (or `--url`): url, pid, version, uptime,
 * sessions, running turns, providers with a key (names only), sandbox, and whether this
 * shell's provider environment matches it. Exit 0 when a server answers, 1 when none runs.
 */
export async function showStatus(options: StatusOptions): Promise<number> {
  const out = options.out ?? process.stdout;
  const env = options.env ?? process.env;
  const recorded = options.url ? undefined : await findRunningServer(options.dataDir);
  // With --port, the data directory's server counts as local only when it is the one on that port.
  const local = recorded && (options.port === undefined || new URL(recorded.url).port === String(options.port)) ? recorded : undefined;
  if (!options.url && !local && options.port === undefined) {
    if (options.json) out.write(`${JSON.stringify({ up: false, dataDir: options.dataDir }, null, 2)}\n`);
    else out.write(`no tandem server is running for ${options.dataDir}; \`tandem\` starts one (or \`tandem serve\` in the foreground)\n`);
    return 1;
  }
  const { url } = await resolveConnection({ ...options, viewer: true });
  const status = await withClient({ ...options, viewer: true }, 'status', (client) => client.request('server:status', {}));
  const mismatch = local ? envMismatch(status, env) : undefined;
  if (options.json) {
    const json = { up: true, url, dataDir: local ? options.dataDir : undefined, ...status, envMatchesShell: local ? !mismatch : undefined };
    out.write(`${JSON.stringify(json, null, 2)}\n`);
    return 0;
  }
  out.write(formatStatus(url, status, { dataDir: local ? options.dataDir : undefined, mismatch, paint: paintFor(out, env) }));
  return 0;
}

export function formatStatus(
  url: string,
  status: ServerStatus,
  extra: { dataDir?: string | undefined; mismatch?: string | undefined; paint?: ReturnType<typeof paintFor> },
): string {
  const paint = extra.paint ?? paintFor(process.stdout, { NO_COLOR: '1' });
  const rows: Array<[string, string]> = [
    ['server', `${paint.green('running')} at ${url} (pid ${status.pid}, version ${status.version})`],
    ['uptime', `${formatDuration(status.uptimeMs)} (since ${status.startedAt})`],
  ];
  if (extra.dataDir) rows.push(['data dir', extra.dataDir]);
  rows.push(['sessions', `${status.sessions}${status.running > 0 ? `, ${paint.yellow(`${status.running} running a turn`)}` : ', none running a turn'}`]);
  rows.push([
    'providers',
    status.providers.length > 0
      ? `${status.providers.join(', ')} (have a key)`
      : 'none has a key (set OPENAI_API_KEY, ANTHROPIC_API_KEY, … in this shell, then `tandem restart`)',
  ]);
  if (status.sandbox) rows.push(['sandbox', status.sandbox]);
  if (extra.dataDir) rows.push(['environment', extra.mismatch ? paint.yellow(extra.mismatch) : 'same provider settings as this shell']);
  const width = Math.max(...rows.map(([label]) => label.length));
  return rows.map(([label, value]) => `${paint.bold(label.padEnd(width))}  ${value}`).join('\n') + '\n';
}

/** `3 s`, `4 min 12 s`, `2 h 5 min`, `3 d 4 h`. */
export function formatDuration(ms: number): string {
  const s = Math.floor(ms / 1000);
  if (s < 60) return `${s} s`;
  const min = Math.floor(s / 60);
  if (min < 60) return `${min} min ${s % 60} s`;
  const h = Math.floor(min / 60);
  if (h < 24) return `${h} h ${min % 60} min`;
  return `${Math.floor(h / 24)} d ${h % 24} h`;
}
