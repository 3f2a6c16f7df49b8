import { randomBytes } from 'node:crypto';
import { open, rename, unlink, type FileHandle } from 'node:fs/promises';
import path from 'node:path';

/**
 * The file-system steps of an atomic write, injectable so a test can fail the rename or stop
 * between chunks (crash simulation). The defaults are node:fs.
 */
export interface AtomicWriteOps {
  open(file: string, flags: string, mode: number): Promise<FileHandle>;
  rename(from: string, to: string): Promise<void>;
  unlink(file: string): Promise<void>;
  /** Called after each chunk is written to the temp file (tests pause or crash here). */
  afterChunk?(written: number, total: number): Promise<void> | void;
}

const defaultOps: AtomicWriteOps = { open, rename, unlink };
const CHUNK = 64 * 1024;

/**
 * Writes `data` to `file` so that a crash at any moment leaves the old file or the new one,
 * never a partial one: write a temp file in the same directory, fsync it, rename it over the
 * target (atomic within one file system), then fsync the directory so the rename is durable.
 * On failure the temp file is removed and the target is untouched.
 */
export async function writeFileAtomic(file: string, data: string, ops: Partial<AtomicWriteOps> = {}): Promise<void> {
  const fs = { ...defaultOps, ...ops };
  const dir = path.dirname(file);
  const temp = path.join(dir, `.${path.basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  const bytes = Buffer.from(data, 'utf8');
  let handle: FileHandle | undefined;
  try {
    handle = await fs.open(temp, 'wx', 0o600);
    for (let offset = 0; offset < bytes.length || offset === 0; offset += CHUNK) {
      const end = Math.min(bytes.length, offset + CHUNK);
      await handle.write(bytes, offset, end - offset, offset);
      await fs.afterChunk?.(end, bytes.length);
      if (bytes.length === 0) break;
    }
    await handle.sync();
    await handle.close();
    handle = undefined;
    await fs.rename(temp, file);
  } catch (err) {
    await handle?.close().catch(() => undefined);
    await fs.unlink(temp).catch(() => undefined);
    throw err;
  }
  await syncDir(dir);
}

async function syncDir(dir: string): Promise<void> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(dir, 'r');
    await handle.sync();
  } catch {
    // Some file systems refuse fsync on a directory; the rename itself is still atomic.
  } finally {
    await handle?.close().catch(() => undefined);
  }
}
