import { resolve } from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import type { Logger } from 'pino';
import { createApplication, type Application, type ApplicationDeps } from '../app.js';
import { checkNodeId } from '../cluster/cluster-options.js';
import { defaultNodeId } from '../cluster/node-id.js';
import { defaultDataDir, ensureDataDir } from './data-dir.js';
import { createServerLogger } from './logger.js';
import { removeServerInfo, writeServerInfo } from './server-info.js';
import { loadTlsFiles, resolveTlsFiles, type TlsFiles } from './tls-files.js';
import { loadTokens } from './tokens.js';
import { webViewerLine } from './web-viewer-line.js';

export interface ServeOptions {
  host?: string;
  port?: number;
  dataDir?: string;
  env?: NodeJS.ProcessEnv;
  /** Where the `tandem listening on …` line and the web viewer's line go; default stdout. */
  stdout?: NodeJS.WritableStream;
  /** Close gracefully on SIGINT/SIGTERM (default true). */
  handleSignals?: boolean;
  /** `--redis URL`: join the cluster of nodes sharing this Redis. */
  redis?: string;
  /** `--node-id ID`: this node's name in the cluster (default: kept in the data directory). */
  nodeId?: string;
  /** `--lease-seconds N`: how long a dead node's sessions stay listed as running (default 15). */
  leaseMs?: number;
  /** `--redis-optional`: run as a single node when Redis cannot be reached at start. */
  redisOptional?: boolean;
  /** `--tls-cert FILE --tls-key FILE`: serve HTTPS and WSS. */
  tls?: TlsFiles;
  /** Extra application parts (tests, embedders). */
  deps?: Partial<ApplicationDeps>;
}

export interface RunningServer {
  url: string;
  dataDir: string;
  app: Application;
  logger: Logger;
  close(): Promise<void>;
}

export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_PORT = 7777;

/** Parses `tandem serve` arguments (with or without the leading `serve`). Throws CommanderError on bad input. */
export function parseServeArgs(
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
): Required<Pick<ServeOptions, 'host' | 'port' | 'dataDir'>> & Pick<ServeOptions, 'redis' | 'nodeId' | 'leaseMs' | 'redisOptional' | 'tls'> {
  const args = argv[0] === 'serve' ? argv.slice(1) : argv;
  const command = new Command('serve')
    .description('run the headless Tandem server in the foreground')
    .option('--host <host>', 'interface to listen on', DEFAULT_HOST)
    .option('--port <port>', 'port to listen on (0 takes a free port)', parsePort, DEFAULT_PORT)
    .option('--data-dir <dir>', 'where sessions, tokens and logs live (default $TANDEM_DATA_DIR or ~/.tandem)')
    .option('--redis <url>', 'join the cluster of nodes sharing this Redis (redis://host:port)')
    .option('--node-id <id>', "this node's name in the cluster (default: one kept in the data directory)", parseNodeId)
    .option('--lease-seconds <n>', 'cluster: how soon a stopped node’s sessions show offline (default 15)', parseLeaseSeconds)
    .option('--redis-optional', 'cluster: run as a single node when Redis cannot be reached at start')
    .option('--tls-cert <file>', 'serve HTTPS and WSS with this certificate (PEM; with --tls-key)')
    .option('--tls-key <file>', "the certificate's private key (PEM)")
    .exitOverride()
    .configureOutput({ writeOut: (s) => process.stdout.write(s), writeErr: (s) => process.stderr.write(s) });
  command.parse(args, { from: 'user' });
  const opts = command.opts<{
    host: string;
    port: number;
    dataDir?: string;
    redis?: string;
    nodeId?: string;
    leaseSeconds?: number;
    redisOptional?: boolean;
    tlsCert?: string;
    tlsKey?: string;
  }>();
  if (!opts.redis && (opts.nodeId || opts.leaseSeconds !== undefined || opts.redisOptional)) {
    command.error('error: --node-id, --lease-seconds and --redis-optional go with --redis URL (the cluster to join)');
  }
  let tls: TlsFiles | undefined;
  try {
    tls = resolveTlsFiles(opts.tlsCert, opts.tlsKey);
  } catch (err) {
    command.error(`error: ${(err as Error).message}`);
  }
  return {
    host: opts.host,
    port: opts.port,
    dataDir: opts.dataDir ? resolve(opts.dataDir) : defaultDataDir(env),
    ...(opts.redis ? { redis: opts.redis } : {}),
    ...(opts.nodeId ? { nodeId: opts.nodeId } : {}),
    ...(opts.leaseSeconds !== undefined ? { leaseMs: Math.round(opts.leaseSeconds * 1000) } : {}),
    ...(opts.redisOptional ? { redisOptional: true } : {}),
    ...(tls ? { tls } : {}),
  };
}

function parseNodeId(value: string): string {
  try {
    return checkNodeId(value);
  } catch (err) {
    throw new InvalidArgumentError(err instanceof Error ? err.message : String(err));
  }
}

function parseLeaseSeconds(value: string): number {
  const seconds = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value.trim()) || seconds < 0.5 || seconds > 600) {
    throw new InvalidArgumentError(`expected a number of seconds from 0.5 to 600, got "${value}"`);
  }
  return seconds;
}

function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isInteger(port) || port < 0 || port > 65535) {
    // Commander prints it as `error: option '--port <port>' argument 'abc' is invalid. …` and exits non-zero.
    throw new InvalidArgumentError(`expected a port number 0..65535, got "${value}"`);
  }
  return port;
}

/**
 * `tandem serve`: prepares the data dir and tokens, starts the server, prints exactly
 * `tandem listening on http://HOST:PORT` (`https://` with --tls-cert and --tls-key) as the first stdout line and the web viewer's address
 * (and where its tokens are, never the tokens) as the second, records server.json, and
 * shuts down gracefully on SIGINT/SIGTERM. Logs go to pino, never stdout.
 */
export async function runServe(input: string[] | ServeOptions = {}): Promise<RunningServer> {
  const options: ServeOptions = Array.isArray(input) ? parseServeArgs(input) : input;
  const env = options.env ?? process.env;
  const dataDir = options.dataDir ?? defaultDataDir(env);
  await ensureDataDir(dataDir);
  const tokens = await loadTokens(dataDir, env);
  const tls = options.tls ? await loadTlsFiles(options.tls) : undefined;
  const logger = createServerLogger(dataDir, env);
  const cluster = options.redis
    ? {
        redisUrl: options.redis,
        nodeId: options.nodeId ?? (await defaultNodeId(dataDir)),
        ...(options.leaseMs !== undefined ? { leaseMs: options.leaseMs } : {}),
        ...(options.redisOptional ? { optional: true } : {}),
      }
    : undefined;
  const app = await createApplication({ dataDir, tokens, logger, env, ...(cluster ? { cluster } : {}), ...(tls ? { tls } : {}), ...options.deps });
  const port = options.port ?? DEFAULT_PORT;
  const host = options.host ?? DEFAULT_HOST;
  let url: string;
  try {
    ({ url } = await app.listen(port, host));
  } catch (err) {
    await app.close().catch(() => undefined);
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') {
      throw new Error(`port ${port} on ${host} is already in use (another tandem server? see ${dataDir}/server.json); pass --port 0 for a free port`);
    }
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') throw new Error(`cannot listen on host ${host}: it is not an address of this machine`);
    throw err;
  }
  // server.json first, so whoever reads the listening line can rely on it being there.
  await writeServerInfo(dataDir, { url, pid: process.pid, startedAt: new Date().toISOString(), ...(options.tls ? { tls: options.tls } : {}) });
  (options.stdout ?? process.stdout).write(`tandem listening on ${url}\n${webViewerLine(url, dataDir, env)}\n`);
  logger.info({ url, dataDir }, 'tandem server listening');

  let closing: Promise<void> | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    logger.info({ signal }, 'shutting down');
    void close().then(
      () => process.exit(0),
      (err) => {
        logger.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  const close = () =>
    (closing ??= (async () => {
      if (options.handleSignals !== false) {
        process.off('SIGINT', onSignal);
        process.off('SIGTERM', onSignal);
      }
      await app.close();
      await removeServerInfo(dataDir);
      logger.info('tandem server stopped');
      logger.flush();
    })());
  if (options.handleSignals !== false) {
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  }
  return { url, dataDir, app, logger, close };
}
