import { lstatSync, readlinkSync, realpathSync } from 'node:fs';
import path from 'node:path';

const MAX_LINKS = 40;

/**
 * The canonical form of an absolute path that may not exist yet: realpath of its deepest
 * existing ancestor, with the missing rest appended. Symlinks anywhere in the existing part are
 * resolved — dangling ones too (a link to a file not yet created points where a write would
 * land) — so a link cannot carry a path out of the directory it appears to be in.
 *
 * The system calls are made synchronously: realpath(3) of a local path takes microseconds, while
 * the same call through libuv's thread pool costs ~30 µs of hand-off CPU, and every tool call
 * that touches a path pays it (measured in `pnpm bench serve --cpu-prof`).
 */
export async function realPathAllowingMissing(absolute: string, hops = 0): Promise<string> {
  if (hops > MAX_LINKS) throw Object.assign(new Error(`too many levels of symbolic links: ${absolute}`), { code: 'ELOOP' });
  const missing: string[] = [];
  let current = path.resolve(absolute);
  for (;;) {
    try {
      const real = realpathSync.native(current);
      return missing.length === 0 ? real : path.join(real, ...missing.reverse());
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error;
      const link = danglingLinkTarget(current);
      if (link !== undefined) return realPathAllowingMissing(path.join(link, ...missing.reverse()), hops + 1);
      const parent = path.dirname(current);
      if (parent === current) return path.join(current, ...missing.reverse());
      missing.push(path.basename(current));
      current = parent;
    }
  }
}

function danglingLinkTarget(p: string): string | undefined {
  try {
    const stat = lstatSync(p);
    if (!stat.isSymbolicLink()) return undefined;
    return path.resolve(path.dirname(p), readlinkSync(p));
  } catch {
    return undefined;
  }
}
