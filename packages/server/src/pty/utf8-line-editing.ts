import { execFile } from 'node:child_process';

/**
 * The runner reads a command's terminal as bytes (node-pty's `encoding: null`: the log gets the
 * bytes as they came, and nothing is decoded and encoded again). node-pty then leaves the
 * terminal's IUTF8 flag off, and the kernel's line editing would erase one byte of a multi-byte
 * character where a person meant the whole character. Setting the flag costs an `stty` (about
 * 5 ms), so it is paid only by a command someone types into, before the first keystrokes reach it.
 * Where stty fails (no such device any more, another system), the input goes through regardless.
 */
export function setUtf8LineEditing(ptsName: string | undefined): Promise<void> {
  if (!ptsName) return Promise.resolve();
  return new Promise((resolve) => execFile('stty', ['-F', ptsName, 'iutf8'], { timeout: 5000 }, () => resolve()));
}
