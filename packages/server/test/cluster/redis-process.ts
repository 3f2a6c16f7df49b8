import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';

/** A real redis-server on a free loopback port, without persistence, that a test can restart. */
export interface RedisProcess {
  url: string;
  port: number;
  /** Stops it (SIGTERM, nothing saved: every key is gone) and starts it again on the same port. */
  restart(): Promise<void>;
  /** Stops it; `restart` brings it back. */
  stop(): Promise<void>;
  start(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function redisInstalled(): boolean {
  return spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;
}

/**
 * Starts `redis-server --port P --save '' --appendonly no` on a free port; undefined, with a loud
 * message, when redis-server is not installed or does not start (.ci/run installs it).
 */
export async function startRedis(): Promise<RedisProcess | undefined> {
  if (!redisInstalled()) {
    console.error('\n!!! redis-server is not installed: the cluster tests are SKIPPED (apt-get install redis-server; .ci/run does) !!!\n');
    return undefined;
  }
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async () => {
    const proc = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = proc;
    await new Promise<void>((resolve, reject) => {
      let out = '';
      proc.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes('Ready to accept connections')) resolve();
      });
      proc.once('exit', (code) => reject(new Error(`redis-server exited with ${code}: ${out.slice(-500)}`)));
    });
  };
  const stop = async () => {
    const proc = child;
    child = undefined;
    if (!proc || proc.exitCode !== null) return;
    const exited = new Promise((resolve) => proc.once('exit', resolve));
    proc.kill('SIGTERM');
    await exited;
  };
  try {
    await start();
  } catch (err) {
    console.error(`\n!!! redis-server did not start (${err instanceof Error ? err.message : String(err)}): the cluster tests are SKIPPED !!!\n`);
    return undefined;
  }
  process.once('exit', () => child?.kill('SIGKILL'));
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    start,
    stop,
    async restart() {
      await stop();
      await start();
    },
  };
}
