import { watch, type FSWatcher } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import path from 'node:path';
import type { AuditRecord } from '@tandem/shared';
import { AUDIT_FILE, parseAuditRecord } from './audit-log.js';
import { auditTableHeader, auditTableRow } from './audit-format.js';
import { readLastLines } from './read-last-lines.js';

export interface AuditCommandOptions {
  dataDir: string;
  sessionId?: string;
  /** Keep printing new records as they are appended, until `signal` (default: SIGINT). */
  tail?: boolean;
  /** One JSON record per line instead of a table. */
  json?: boolean;
  /** How many of the most recent records to print first (default 50). */
  limit?: number;
  out: { write(text: string): unknown };
  signal?: AbortSignal;
  /** How often `tail` checks the file besides file-system events (default 500 ms). */
  pollIntervalMs?: number;
}

/**
 * `tandem audit [--session ID] [--tail] [--json] [--limit N]`: prints the audit log from the
 * data directory (no server needed). Resolves with the exit code.
 */
export async function runAuditCommand(options: AuditCommandOptions): Promise<number> {
  const file = path.join(options.dataDir, AUDIT_FILE);
  const limit = options.limit ?? 50;
  if (!Number.isInteger(limit) || limit < 1) {
    options.out.write(`--limit must be a positive whole number, got ${limit}\n`);
    return 2;
  }
  const wanted = (r: AuditRecord) => options.sessionId === undefined || r.sessionId === options.sessionId;
  const print = (r: AuditRecord) => options.out.write(options.json ? `${JSON.stringify(r)}\n` : auditTableRow(r));

  const last = await readLastLines(file, options.sessionId === undefined ? limit : Math.max(limit, 1000));
  const records = last.lines
    .map(parseAuditRecord)
    .filter((r): r is AuditRecord => r !== null && wanted(r))
    .slice(-limit);
  if (!options.json && (records.length > 0 || options.tail)) options.out.write(auditTableHeader());
  records.forEach(print);
  if (!options.tail) {
    if (records.length === 0 && !options.json)
      options.out.write(`no audit records${options.sessionId ? ` for session ${options.sessionId}` : ''} in ${file}\n`);
    return 0;
  }

  await follow(
    file,
    last.size - last.partialBytes,
    (line) => {
      const record = parseAuditRecord(line);
      if (record && wanted(record)) print(record);
    },
    options,
  );
  return 0;
}

/** Calls `onLine` for each complete line appended after `from`, until the signal or SIGINT. */
async function follow(file: string, from: number, onLine: (line: string) => void, options: AuditCommandOptions): Promise<void> {
  const stop = new AbortController();
  const onSigint = () => stop.abort();
  if (options.signal) options.signal.addEventListener('abort', onSigint, { once: true });
  else process.once('SIGINT', onSigint);
  if (options.signal?.aborted) stop.abort();

  let position = from;
  let pending = '';
  let busy = false;
  let again = false;
  const read = async () => {
    if (busy) {
      again = true;
      return;
    }
    busy = true;
    try {
      do {
        again = false;
        const size = await stat(file).then(
          (s) => s.size,
          () => 0,
        );
        if (size < position) {
          position = 0; // the file was replaced or truncated: start over
          pending = '';
        }
        if (size === position) continue;
        const handle = await open(file, 'r');
        try {
          const buffer = Buffer.alloc(size - position);
          const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
          position += bytesRead;
          const lines = (pending + buffer.subarray(0, bytesRead).toString('utf8')).split('\n');
          pending = lines.pop() ?? '';
          for (const line of lines) if (line.trim()) onLine(line);
        } finally {
          await handle.close();
        }
      } while (again && !stop.signal.aborted);
    } catch {
      // a transient read error: the next tick tries again
    } finally {
      busy = false;
    }
  };

  let watcher: FSWatcher | undefined;
  const startWatcher = () => {
    if (watcher) return;
    try {
      watcher = watch(file, () => void read());
      watcher.on('error', () => {
        watcher?.close();
        watcher = undefined;
      });
    } catch {
      watcher = undefined; // the file does not exist yet; the poll keeps looking
    }
  };
  startWatcher();
  const poll = setInterval(() => {
    startWatcher();
    void read();
  }, options.pollIntervalMs ?? 500);
  await read();
  await new Promise<void>((resolve) => {
    if (stop.signal.aborted) return resolve();
    stop.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  clearInterval(poll);
  watcher?.close();
  options.signal?.removeEventListener('abort', onSigint);
  process.removeListener('SIGINT', onSigint);
}
