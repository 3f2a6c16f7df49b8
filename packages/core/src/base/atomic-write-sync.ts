import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';

/**
 * `writeFileAtomic` for code that must stay synchronous (a store whose callers expect the file
 * written when the call returns): the same temp file beside the target (mode 0600), fsync,
 * rename over the target, fsync of the directory. A crash leaves the old file or the new one;
 * on failure the temp file is removed and the target is untouched.
 */
export function writeFileAtomicSync(file: string, data: string | Uint8Array): void {
  const dir = path.dirname(file);
  const temp = path.join(dir, `.${path.basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  let fd: number | undefined;
  try {
    fd = openSync(temp, 'wx', 0o600);
    for (let offset = 0; offset < bytes.length; ) offset += writeSync(fd, bytes, offset, bytes.length - offset);
    fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    renameSync(temp, file);
  } catch (err) {
    if (fd !== undefined) closeQuietly(fd);
    try {
      unlinkSync(temp);
    } catch {
      // never created, or already renamed
    }
    throw err;
  }
  syncDir(dir);
}

function syncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // Some file systems refuse fsync on a directory; the rename itself is still atomic.
  } finally {
    if (fd !== undefined) closeQuietly(fd);
  }
}

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // already closed
  }
}
