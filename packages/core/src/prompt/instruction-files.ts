import { readFileSync, realpathSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { AGENTS_MD_MAX_BYTES } from './agents-md.js';

/**
 * The instruction files people already have: `AGENTS.md` (codex, opencode, Cursor, Tandem) in a
 * folder, or `CLAUDE.md` (Claude Code) where there is no AGENTS.md. One per folder.
 */
export const INSTRUCTION_FILES = ['AGENTS.md', 'CLAUDE.md'] as const;

/** One folder's instructions: the file (absolute), its name, and its text (cut at 32 KB with a note). */
export interface InstructionFile {
  file: string;
  name: string;
  text: string;
}

/**
 * The instruction file of `dir`, if any: AGENTS.md, else CLAUDE.md. A file that resolves outside
 * `within` (a symbolic link out of the workspace) is not read: its text would go to the model.
 */
export function instructionFileIn(dir: string, within?: string, maxBytes = AGENTS_MD_MAX_BYTES): InstructionFile | undefined {
  for (const name of INSTRUCTION_FILES) {
    const file = join(dir, name);
    let data: Buffer;
    try {
      if (!statSync(file).isFile()) continue;
      if (within && !inside(realpathSync(file), realpathSync(within))) continue;
      data = readFileSync(file);
    } catch {
      continue;
    }
    return { file, name, text: cut(data, name, maxBytes) };
  }
  return undefined;
}

function cut(data: Buffer, name: string, maxBytes: number): string {
  if (data.length <= maxBytes) return data.toString('utf8');
  const head = data
    .subarray(0, maxBytes)
    .toString('utf8')
    .replace(/\uFFFD+$/, '');
  return `${head}\n\n[${name} is ${data.length} bytes; only its first ${Math.round(maxBytes / 1024)} KB are shown here. Read the file for the rest.]`;
}

export function inside(path: string, root: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !rel.startsWith(sep));
}
