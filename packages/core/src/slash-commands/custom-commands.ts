import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CustomCommand } from '@tandem/shared';
import { walkDefinitionFolders } from '../base/walk-definition-folders.js';
import { parseCommandFile } from './command-file.js';

/** One folder of command files, and what the list says about where a command comes from. */
export interface CommandRoot {
  dir: string;
  source: CustomCommand['source'];
}

/**
 * The roots in priority order (first wins on a name clash): the project's `.tandem/commands`
 * and `.claude/commands`, the user's `<data-dir>/commands`, then `~/.claude/commands`.
 */
export function commandRoots(args: { workspace: string; dataDir: string; home: string }): CommandRoot[] {
  return [
    { dir: join(args.workspace, '.tandem', 'commands'), source: 'project' },
    { dir: join(args.workspace, '.claude', 'commands'), source: 'project' },
    { dir: join(args.dataDir, 'commands'), source: 'user' },
    { dir: join(args.home, '.claude', 'commands'), source: 'user' },
  ];
}

/** A command name: letters, digits, `-` and `_`, with `:` between a subfolder and the file name. */
const NAME = /^[A-Za-z0-9][A-Za-z0-9_-]*(:[A-Za-z0-9][A-Za-z0-9_-]*)?$/;
const MAX_FILE_BYTES = 256 * 1024;

/**
 * Every `NAME.md` of the roots, and `SUB/NAME.md` as `SUB:NAME` (Claude Code's folders). A name an
 * earlier root already has is listed as shadowed; a file that cannot be used is listed as invalid
 * with the reason. (Built-in commands are the client's: it says which custom ones they shadow.)
 * Read on each call: files people add are seen at once.
 */
export function discoverCustomCommands(roots: readonly CommandRoot[]): CustomCommand[] {
  const out: CustomCommand[] = [];
  const taken = new Map<string, string>();
  for (const { root, name, path: file } of walkDefinitionFolders(roots, 'files-and-subfolders')) {
    const base = { name, source: root.source, file };
    if (!NAME.test(name)) {
      out.push({ ...base, description: '', body: '', status: 'invalid', reason: 'the name may hold letters, digits, - and _ only' });
      continue;
    }
    let text: string;
    try {
      const data = readFileSync(file);
      if (data.length > MAX_FILE_BYTES) throw new Error(`it is over ${MAX_FILE_BYTES / 1024} KB`);
      text = data.toString('utf8');
    } catch (err) {
      out.push({ ...base, description: '', body: '', status: 'invalid', reason: `cannot be read: ${(err as Error).message}` });
      continue;
    }
    const parsed = parseCommandFile(text);
    if (!parsed.ok) {
      out.push({ ...base, description: '', body: '', status: 'invalid', reason: parsed.reason });
      continue;
    }
    const { command } = parsed;
    const entry: CustomCommand = {
      ...base,
      description: command.description,
      body: command.body,
      status: 'ok',
      ...(command.argumentHint ? { argumentHint: command.argumentHint } : {}),
    };
    const winner = taken.get(name.toLowerCase());
    if (winner) {
      out.push({ ...entry, status: 'shadowed', reason: `${winner} of the same name comes first` });
      continue;
    }
    taken.set(name.toLowerCase(), file);
    out.push(entry);
  }
  return out;
}
