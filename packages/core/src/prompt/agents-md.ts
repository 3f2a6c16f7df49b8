import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** AGENTS.md beyond this size is cut, so one file cannot crowd out the conversation. */
export const AGENTS_MD_MAX_BYTES = 32 * 1024;

/**
 * Reads `<cwd>/AGENTS.md`. Returns undefined when there is none (or it cannot be read);
 * a file over 32 KB is cut at that size with a note saying so.
 */
export async function loadAgentsMd(cwd: string, maxBytes = AGENTS_MD_MAX_BYTES): Promise<string | undefined> {
  let data: Buffer;
  try {
    data = await readFile(join(cwd, 'AGENTS.md'));
  } catch {
    return undefined;
  }
  if (data.length <= maxBytes) return data.toString('utf8');
  const head = data
    .subarray(0, maxBytes)
    .toString('utf8')
    .replace(/\uFFFD+$/, '');
  const kb = Math.round(maxBytes / 1024);
  return `${head}\n\n[AGENTS.md is ${data.length} bytes; only its first ${kb} KB are shown here. Read the file for the rest.]`;
}
