import { chmodSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { PackageBin } from './package-scan.js';

/** The first lines of every shim, so a shim is known as one and its package found again. */
const MARK = '# tandem package shim:';

/** `'…'` with embedded quotes closed and reopened: safe for any path in sh. */
function shQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** The shim for one executable: the package's own dependencies first on the PATH, then exec. */
export function shimScript(packageName: string, packageDir: string, bin: PackageBin): string {
  const target = shQuote(path.join(packageDir, bin.path));
  return [
    '#!/bin/sh',
    `${MARK} ${packageName}`,
    `# Runs ${bin.path} of the Tandem package "${packageName}"; written by \`tandem packages\`, removed by \`tandem packages rm ${packageName}\`.`,
    `PATH=${shQuote(path.join(packageDir, 'node_modules', '.bin'))}:${shQuote(path.join(packageDir, '.venv', 'bin'))}:"$PATH"`,
    'export PATH',
    `exec ${bin.runner === 'node' ? 'node ' : ''}${target} "$@"`,
    '',
  ].join('\n');
}

/** The package a shim belongs to, or undefined for a file that is not a Tandem shim. */
export function shimOwner(file: string): string | undefined {
  try {
    const line = readFileSync(file, 'utf8').split('\n', 3)[1] ?? '';
    return line.startsWith(MARK) ? line.slice(MARK.length).trim() : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Writes a shim in `binDir` for each executable; a name another package's shim (or a file that
 * is not a shim) already holds is left alone and returned as a conflict. Shims of this package
 * that are no longer among `bins` are removed.
 */
export function writeShims(binDir: string, packageName: string, packageDir: string, bins: readonly PackageBin[]): { written: string[]; conflicts: string[] } {
  mkdirSync(binDir, { recursive: true });
  const written: string[] = [];
  const conflicts: string[] = [];
  for (const bin of bins) {
    const file = path.join(binDir, bin.name);
    const owner = shimOwner(file);
    let exists = true;
    try {
      readFileSync(file);
    } catch {
      exists = false;
    }
    if (exists && owner !== packageName) {
      conflicts.push(bin.name);
      continue;
    }
    writeFileSync(file, shimScript(packageName, packageDir, bin), { mode: 0o755 });
    chmodSync(file, 0o755);
    written.push(bin.name);
  }
  const keep = new Set(written);
  for (const name of shimsOf(binDir, packageName)) if (!keep.has(name)) rmSync(path.join(binDir, name), { force: true });
  return { written, conflicts };
}

/** Removes every shim of the package. */
export function removeShims(binDir: string, packageName: string): string[] {
  const removed = shimsOf(binDir, packageName);
  for (const name of removed) rmSync(path.join(binDir, name), { force: true });
  return removed;
}

function shimsOf(binDir: string, packageName: string): string[] {
  let names: string[];
  try {
    names = readdirSync(binDir);
  } catch {
    return [];
  }
  return names.filter((name) => shimOwner(path.join(binDir, name)) === packageName);
}
