import { open } from 'node:fs/promises';

const CHUNK = 64 * 1024;

export interface LastLines {
  lines: string[];
  /** File size when read: where a follower continues. */
  size: number;
  /** True when the file does not end with a newline (a write was cut short, or is under way). */
  partialTail: boolean;
  /** Bytes after the last newline: where the unfinished line starts is `size - partialBytes`. */
  partialBytes: number;
}

/**
 * The last `count` complete lines of a file, read backwards in chunks, so start-up cost does
 * not grow with the file. A last line without its newline (a crash mid-write) is left out.
 * A missing file has no lines.
 */
export async function readLastLines(file: string, count: number): Promise<LastLines> {
  let handle;
  try {
    handle = await open(file, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { lines: [], size: 0, partialTail: false, partialBytes: 0 };
    throw error;
  }
  try {
    const { size } = await handle.stat();
    if (size === 0) return { lines: [], size, partialTail: false, partialBytes: 0 };
    let position = size;
    let tail = Buffer.alloc(0);
    let newlines = 0;
    while (position > 0 && newlines <= Math.max(count, 0)) {
      const length = Math.min(CHUNK, position);
      position -= length;
      const chunk = Buffer.alloc(length);
      await handle.read(chunk, 0, length, position);
      for (const byte of chunk) if (byte === 0x0a) newlines++;
      tail = Buffer.concat([chunk, tail]);
    }
    const lastNewline = tail.lastIndexOf(0x0a);
    const partialBytes = tail.length - lastNewline - 1;
    const parts = tail.toString('utf8').split('\n');
    parts.pop(); // after the last newline: '' or a cut-off line
    if (position > 0) parts.shift(); // may begin mid-line
    const lines = count > 0 ? parts.filter((l) => l.trim() !== '').slice(-count) : [];
    return { lines, size, partialTail: partialBytes > 0, partialBytes };
  } finally {
    await handle.close();
  }
}
