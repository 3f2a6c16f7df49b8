import { readdirSync } from 'node:fs';
import path from 'node:path';

/**
 * Unix sockets under `/run`: the system bus (`/run/dbus/system_bus_socket`), systemd's private
 * socket, container daemons, snapd, nscd… A read-only mount does not stop `connect()` on a
 * socket, and such a daemon trusts the peer's uid: for a command running as root (Tandem run by
 * root) that is a way back out of the sandbox (`systemctl start …` via the private socket). They
 * are found at every command (a daemon may start later) and covered with `/dev/null`.
 * A few dozen directory entries: well under a millisecond.
 */
export function systemSockets(roots: readonly string[] = ['/run'], maxDepth = 3, skip: readonly string[] = ['/run/user']): string[] {
  const found: string[] = [];
  const walk = (dir: string, depth: number) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      if (skip.includes(full)) continue;
      if (entry.isSocket()) found.push(full);
      else if (entry.isDirectory() && depth < maxDepth) walk(full, depth + 1);
    }
  };
  for (const root of roots) walk(root, 1);
  return found;
}
