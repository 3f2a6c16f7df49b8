import { open } from 'node:fs/promises';

const CHUNK = 64 * 1024;

/**
 * A crash can leave a log ending in half a line. Appending after it would glue the next event
 * onto that fragment and lose it too, so the fragment is cut off, back to the last newline.
 * Returns the number of bytes removed (0 when the file ended cleanly or does not exist).
 */
export async function cutPartialLastLine(path: string): Promise<number> {
  const handle = await open(path, 'r+').catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return undefined;
    throw err;
  });
  if (!handle) return 0;
  try {
    const { size } = await handle.stat();
    if (size === 0) return 0;
    const last = Buffer.alloc(1);
    await handle.read(last, 0, 1, size - 1);
    if (last[0] === 0x0a) return 0;
    let end = size;
    while (end > 0) {
      const start = Math.max(0, end - CHUNK);
      const buffer = Buffer.alloc(end - start);
      await handle.read(buffer, 0, buffer.length, start);
      const newline = buffer.lastIndexOf(0x0a);
      if (newline >= 0) {
        const keep = start + newline + 1;
        await handle.truncate(keep);
        return size - keep;
      }
      end = start;
    }
    await handle.truncate(0);
    return size;
  } finally {
    await handle.close();
  }
}
