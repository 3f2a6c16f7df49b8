import { copyFile } from 'node:fs/promises';

/**
 * Parses the text of a JSON file the server keeps (permissions.json, shares.json). Text that is
 * not JSON never stops the server: the file is copied aside to `<file>.corrupt-<now>` and the
 * warning says where, and that the server started with `instead` (the caller starts empty).
 */
export async function parseStoredJson(file: string, text: string, now: number, instead: string): Promise<{ data: unknown } | { warning: string }> {
  try {
    return { data: JSON.parse(text) };
  } catch (error) {
    const aside = `${file}.corrupt-${now}`;
    await copyFile(file, aside).catch(() => {});
    return { warning: `${file} is not valid JSON (${(error as Error).message}); kept a copy at ${aside} and started with ${instead}` };
  }
}
