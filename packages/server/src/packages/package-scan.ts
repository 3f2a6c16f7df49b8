import { createHash } from 'node:crypto';
import { existsSync, lstatSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { SKILL_FILE } from '@tandem/core';

/** skill-shaped (SKILL.md folders), CLI-shaped (executables), or both. */
export type PackageKind = 'skill' | 'cli' | 'both';

/** One executable of a package, and how its shim starts it. */
export interface PackageBin {
  name: string;
  /** Relative to the package folder. */
  path: string;
  /** `node` for a JavaScript entry without its own interpreter line; absent: exec'd directly. */
  runner?: 'node';
}

/** The package's dependency install, as its files declare it (npm, pip). */
export interface DeclaredInstall {
  command: string;
  /** The files that declared it (package.json, requirements.txt, …). */
  manifests: string[];
  /** A hash of those files and the command: a changed one asks again after `update`. */
  fingerprint: string;
}

export interface PackageScan {
  kind?: PackageKind;
  /** Folders holding a SKILL.md, relative to the package (`.` for the package itself). */
  skills: string[];
  bins: PackageBin[];
  install?: DeclaredInstall;
  /** What was found but not used (a bin outside the package, a file that is not executable). */
  notes: string[];
}

const SKIP = new Set(['.git', 'node_modules', '.venv', '__pycache__']);
const MAX_SKILL_DEPTH = 4;
const BIN_NAME = /^[A-Za-z0-9][A-Za-z0-9._+-]{0,63}$/;

/** Paths of symbolic links under `dir` (relative), walking everything but `.git`. */
export function findSymlinks(dir: string, max = 20): string[] {
  const found: string[] = [];
  const walk = (current: string) => {
    if (found.length >= max) return;
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const full = path.join(current, entry.name);
      if (entry.isSymbolicLink()) found.push(path.relative(dir, full));
      else if (entry.isDirectory() && !(current === dir && entry.name === '.git')) walk(full);
      if (found.length >= max) return;
    }
  };
  walk(dir);
  return found;
}

/**
 * What a package folder is (ARCHITECTURE "External packages"): its `SKILL.md` folders, its
 * executables (package.json `bin`, else the executable files in `bin/`), and the dependency
 * install its files declare. Reads only; nothing in the package runs.
 */
export function scanPackage(dir: string): PackageScan {
  const notes: string[] = [];
  const skills = skillFolders(dir);
  const bins = packageJsonBins(dir, notes) ?? binFolder(dir, notes);
  const install = declaredInstall(dir);
  const kind: PackageKind | undefined = skills.length > 0 && bins.length > 0 ? 'both' : skills.length > 0 ? 'skill' : bins.length > 0 ? 'cli' : undefined;
  return { ...(kind ? { kind } : {}), skills, bins, ...(install ? { install } : {}), notes };
}

function skillFolders(dir: string): string[] {
  const out: string[] = [];
  const walk = (current: string, depth: number) => {
    if (isFile(path.join(current, SKILL_FILE))) out.push(path.relative(dir, current) || '.');
    if (depth >= MAX_SKILL_DEPTH) return;
    let entries;
    try {
      entries = readdirSync(current, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      if (entry.isDirectory() && !SKIP.has(entry.name) && !entry.name.startsWith('.')) walk(path.join(current, entry.name), depth + 1);
    }
  };
  walk(dir, 0);
  return out;
}

function packageJsonBins(dir: string, notes: string[]): PackageBin[] | undefined {
  const manifest = readJson(path.join(dir, 'package.json'));
  if (!manifest || manifest.bin === undefined) return undefined;
  const pkgName = typeof manifest.name === 'string' ? manifest.name.replace(/^@[^/]+\//, '') : undefined;
  const entries: Array<[string, unknown]> =
    typeof manifest.bin === 'string' ? (pkgName ? [[pkgName, manifest.bin]] : []) : isRecord(manifest.bin) ? Object.entries(manifest.bin) : [];
  const bins: PackageBin[] = [];
  for (const [name, target] of entries) {
    if (!BIN_NAME.test(name) || typeof target !== 'string') {
      notes.push(`package.json bin "${name}" skipped: not a usable name and path`);
      continue;
    }
    const rel = path.normalize(target);
    if (path.isAbsolute(rel) || rel.startsWith('..')) {
      notes.push(`package.json bin "${name}" skipped: ${target} is outside the package`);
      continue;
    }
    if (!isFile(path.join(dir, rel))) {
      notes.push(`package.json bin "${name}" skipped: ${target} is not a file in the package`);
      continue;
    }
    bins.push({ name, path: rel, ...(needsNode(path.join(dir, rel)) ? { runner: 'node' as const } : {}) });
  }
  return bins;
}

function binFolder(dir: string, notes: string[]): PackageBin[] {
  const binDir = path.join(dir, 'bin');
  let names: string[];
  try {
    names = readdirSync(binDir).sort();
  } catch {
    return [];
  }
  const bins: PackageBin[] = [];
  for (const name of names) {
    const file = path.join(binDir, name);
    if (name.startsWith('.') || !isFile(file)) continue;
    if (!BIN_NAME.test(name)) {
      notes.push(`bin/${name} skipped: not a usable command name`);
      continue;
    }
    if ((statSync(file).mode & 0o111) === 0) {
      notes.push(`bin/${name} skipped: not executable (git keeps the executable bit: chmod +x it in the repository)`);
      continue;
    }
    bins.push({ name, path: path.join('bin', name) });
  }
  return bins;
}

/** npm for a package.json with dependencies, a virtual environment and pip for requirements.txt / pyproject.toml. */
function declaredInstall(dir: string): DeclaredInstall | undefined {
  const steps: string[] = [];
  const manifests: string[] = [];
  const manifest = readJson(path.join(dir, 'package.json'));
  const deps = manifest && isRecord(manifest.dependencies) ? Object.keys(manifest.dependencies) : [];
  if (deps.length > 0) {
    const locked = existsSync(path.join(dir, 'package-lock.json'));
    steps.push(locked ? 'npm ci --omit=dev --no-audit --no-fund' : 'npm install --omit=dev --no-audit --no-fund');
    manifests.push('package.json', ...(locked ? ['package-lock.json'] : []));
  }
  if (isFile(path.join(dir, 'requirements.txt'))) {
    steps.push('python3 -m venv .venv && .venv/bin/pip install -r requirements.txt');
    manifests.push('requirements.txt');
  } else if (isFile(path.join(dir, 'pyproject.toml'))) {
    steps.push('python3 -m venv .venv && .venv/bin/pip install .');
    manifests.push('pyproject.toml');
  }
  if (steps.length === 0) return undefined;
  const command = steps.join(' && ');
  const hash = createHash('sha256').update(command);
  for (const file of manifests) hash.update('\0').update(readFileSync(path.join(dir, file)));
  return { command, manifests, fingerprint: hash.digest('hex').slice(0, 16) };
}

function needsNode(file: string): boolean {
  if (!/\.(c|m)?js$/.test(file)) return false;
  const executable = (statSync(file).mode & 0o111) !== 0;
  return !(executable && readFileSync(file, 'utf8').slice(0, 2) === '#!');
}

function readJson(file: string): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function isFile(file: string): boolean {
  try {
    return lstatSync(file).isFile();
  } catch {
    return false;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
