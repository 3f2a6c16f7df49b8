import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** The longest Unix socket path Linux takes (108 bytes with the final NUL). */
const MAX_SOCKET_PATH = 107;
/** A socket's file name: 24 hex characters and `.sock`. */
const SOCKET_NAME_LENGTH = 29;

/**
 * Where the reverse bridge's sockets live: `<data-dir>/bridge` (mode 0700), or, when that path
 * is too long for a Unix socket, a folder of this data directory under the system's temp
 * directory. Commands see it read-only in the OS sandbox (a socket is reached with `connect`,
 * which a read-only mount allows); each socket also needs its run's one-time token.
 */
export function bridgeSocketDir(dataDir: string): string {
  const preferred = path.join(dataDir, 'bridge');
  const dir =
    Buffer.byteLength(preferred) + 1 + SOCKET_NAME_LENGTH <= MAX_SOCKET_PATH
      ? preferred
      : path.join(tmpdir(), `tandem-bridge-${process.getuid?.() ?? 'u'}-${createHash('sha256').update(dataDir).digest('hex').slice(0, 12)}`);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  return dir;
}
