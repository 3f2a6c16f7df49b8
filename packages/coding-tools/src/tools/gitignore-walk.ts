import fs from 'node:fs/promises';
import path from 'node:path';
import ignore, { type Ignore } from 'ignore';

interface Rules {
  /** Directory the .gitignore sits in; its patterns are relative to it. */
  base: string;
  rules: Ignore;
}

export interface WalkOptions {
  /** Where .gitignore files start to apply (the workspace); ancestors of `root` up to it count. */
  top: string;
  /** Skip nothing but .git (no .gitignore, node_modules included). */
  includeIgnored?: boolean;
  signal?: AbortSignal;
}

const ALWAYS_SKIPPED = new Set(['.git']);
const SKIPPED_BY_DEFAULT = new Set(['node_modules']);

/**
 * Every regular file under `root`, depth first in name order, honouring .gitignore files the
 * way git does: each one applies to its own directory and below, nested ones included, plus
 * those in the directories between `top` and `root`. Symbolic links are not followed.
 */
export async function* walkFiles(root: string, options: WalkOptions): AsyncGenerator<string> {
  const inherited = options.includeIgnored ? [] : await ancestorRules(root, options.top);
  yield* walk(root, inherited, options);
}

async function* walk(dir: string, rules: Rules[], options: WalkOptions): AsyncGenerator<string> {
  if (options.signal?.aborted) return;
  let entries;
  try {
    entries = await fs.readdir(dir, { withFileTypes: true });
  } catch {
    return;
  }
  const own = options.includeIgnored ? undefined : await loadRules(dir);
  const active = own ? [...rules, own] : rules;
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    if (ALWAYS_SKIPPED.has(entry.name)) continue;
    const full = path.join(dir, entry.name);
    const isDir = entry.isDirectory();
    if (!options.includeIgnored && isDir && SKIPPED_BY_DEFAULT.has(entry.name)) continue;
    if (isIgnored(full, isDir, active)) continue;
    if (isDir) yield* walk(full, active, options);
    else if (entry.isFile()) yield full;
  }
}

/** Deeper .gitignore files override shallower ones, as in git (a nested `!keep.log` re-includes). */
function isIgnored(full: string, isDir: boolean, rules: Rules[]): boolean {
  for (let i = rules.length - 1; i >= 0; i--) {
    const { base, rules: ig } = rules[i]!;
    const rel = path.relative(base, full).split(path.sep).join('/');
    if (rel === '' || rel.startsWith('..')) continue;
    const verdict = ig.test(isDir ? `${rel}/` : rel);
    if (verdict.ignored) return true;
    if (verdict.unignored) return false;
  }
  return false;
}

async function loadRules(dir: string): Promise<Rules | undefined> {
  try {
    const text = await fs.readFile(path.join(dir, '.gitignore'), 'utf8');
    return { base: dir, rules: ignore().add(text) };
  } catch {
    return undefined;
  }
}

/** .gitignore files from `top` down to (not including) `root`. */
async function ancestorRules(root: string, top: string): Promise<Rules[]> {
  const rel = path.relative(top, root);
  if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) return [];
  const dirs = [top];
  let current = top;
  for (const part of rel.split(path.sep).slice(0, -1)) {
    current = path.join(current, part);
    dirs.push(current);
  }
  const found = await Promise.all(dirs.map(loadRules));
  return found.filter((r): r is Rules => r !== undefined);
}
