import { processAlive, type ServerInfo } from '@tandem/server/local';

/**
 * Sends the server SIGTERM (it ends running turns as interrupted, flushes its logs and removes
 * server.json) and waits until its process is gone. Throws when it is still there after
 * `timeoutMs`, saying how to end it by force.
 */
export async function stopServer(info: ServerInfo, timeoutMs = 20_000): Promise<void> {
  try {
    process.kill(info.pid, 'SIGTERM');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ESRCH') return;
    throw new Error(`cannot signal the server (pid ${info.pid}): ${(err as Error).message}`);
  }
  const deadline = Date.now() + timeoutMs;
  while (processAlive(info.pid)) {
    if (Date.now() > deadline) {
      throw new Error(`the server (pid ${info.pid}) is still running ${Math.round(timeoutMs / 1000)} s after SIGTERM; end it with \`kill -9 ${info.pid}\``);
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The host of a server URL as `--host` takes it, e.g. `0.0.0.0` or `::1`. */
export function hostOf(url: string): string {
  return new URL(url).hostname.replace(/^\[(.*)\]$/, '$1');
}

/** The port of a server URL, e.g. 7777 for `http://127.0.0.1:7777`. */
export function portOf(url: string): number | undefined {
  const port = Number(new URL(url).port);
  return Number.isInteger(port) && port > 0 ? port : undefined;
}
