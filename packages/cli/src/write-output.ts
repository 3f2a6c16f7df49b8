import { randomBytes } from 'node:crypto';
import { rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';

/** Writes `text` to `file` atomically (a temp file beside it, then rename); returns the absolute path. */
export async function writeOutput(file: string, text: string): Promise<string> {
  const target = resolve(file);
  const temp = join(dirname(target), `.${basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    await writeFile(temp, text, { mode: 0o600 });
    await rename(temp, target);
  } catch (err) {
    await rm(temp, { force: true });
    throw new Error(`could not write ${target}: ${(err as Error).message}`);
  }
  return target;
}
