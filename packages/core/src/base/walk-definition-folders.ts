import { type Dirent, readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';

/**
 * How a root holds its definitions:
 * - `files`: `NAME.md` files (agents);
 * - `files-and-subfolders`: `NAME.md` files and, one level down, `SUB/NAME.md` named `SUB:NAME` (custom commands);
 * - `folders`: one folder per definition, holding its own file (skills, `NAME/SKILL.md`).
 */
export type DefinitionLayout = 'files' | 'files-and-subfolders' | 'folders';

/** One folder definitions are read from (`.tandem/…`, `.claude/…`, `.agents/…`, the user's). */
export interface DefinitionRoot {
  dir: string;
  /** The definition folders of this root (absolute), when it names them rather than holding them in `dir` (an external package's skills). */
  folders?: readonly string[];
}

/** One definition found: its root, its name (the file name without `.md`, `SUB:NAME`, or the folder name) and its absolute path. */
export interface FoundDefinition<R extends DefinitionRoot> {
  root: R;
  name: string;
  path: string;
}

/**
 * Every definition of the roots, root by root in the order given (priority order: the caller
 * lets the first of a name win), each root's sorted by name. A root whose folder does not exist
 * has none. Read on each call: files people add are seen at once.
 */
export function* walkDefinitionFolders<R extends DefinitionRoot>(roots: readonly R[], layout: DefinitionLayout): Generator<FoundDefinition<R>> {
  for (const root of roots) {
    for (const { name, path } of definitionsOf(root, layout)) yield { root, name, path };
  }
}

/**
 * A fingerprint of the roots and what they hold: the modification time, size and inode of each
 * root, of each definition and (for `folders`) of the file `inner` inside each. It changes when a
 * definition is added, removed or edited; one stat per root and per definition, no reading.
 */
export function definitionFoldersSignature(roots: readonly DefinitionRoot[], layout: DefinitionLayout, inner?: string): string {
  const parts: string[] = [];
  for (const root of roots) {
    const rootStamp = stamp(root.dir);
    parts.push(`${root.dir}:${rootStamp}`);
    if (rootStamp === '-') continue;
    for (const { name, path } of definitionsOf(root, layout)) {
      parts.push(inner ? `${name}:${stamp(path)}:${stamp(join(path, inner))}` : `${name}:${stamp(path)}`);
    }
  }
  return parts.join('|');
}

function definitionsOf(root: DefinitionRoot, layout: DefinitionLayout): Array<{ name: string; path: string }> {
  if (layout === 'folders') {
    if (root.folders) return root.folders.map((path) => ({ name: basename(path), path }));
    return list(root.dir)
      .filter((d) => d.isDirectory() || (d.isSymbolicLink() && isDir(join(root.dir, d.name))))
      .map((d) => ({ name: d.name, path: join(root.dir, d.name) }))
      .sort((a, b) => codeUnitOrder(a.name, b.name));
  }
  const found = markdownFiles(root.dir, '');
  // By file name (`a.md` before `a-b.md`), as agents have always been read.
  if (layout === 'files') return found.sort((a, b) => codeUnitOrder(a.path, b.path));
  for (const d of list(root.dir)) {
    if (d.isDirectory()) found.push(...markdownFiles(join(root.dir, d.name), `${d.name}:`));
  }
  // Commands have always been listed in the locale's order (`a`, `B`, `c`); agents and skills in code-unit order.
  return found.sort((a, b) => a.name.localeCompare(b.name));
}

function markdownFiles(dir: string, prefix: string): Array<{ name: string; path: string }> {
  return list(dir)
    .filter((d) => (d.isFile() || d.isSymbolicLink()) && d.name.endsWith('.md'))
    .map((d) => ({ name: `${prefix}${d.name.slice(0, -3)}`, path: join(dir, d.name) }));
}

function codeUnitOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function list(dir: string): Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}

function isDir(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function stamp(path: string): string {
  try {
    const st = statSync(path);
    return `${st.mtimeMs}/${st.size}/${st.ino}`;
  } catch {
    return '-';
  }
}
