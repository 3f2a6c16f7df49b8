import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { credentialPathIn, credentialPathsUnder, isWithin, isWithinProtected, protectedLocationOf, systemDirectoryOf } from './protected-paths.js';
import { realPathAllowingMissing } from './real-path.js';
import { type PathResolver, SandboxError } from '@tandem/core';

export interface PathSandboxOptions {
  /** The session's project root. Relative paths resolve against it. */
  workspace: string;
  /** Directories the user granted beyond the workspace. */
  granted?: string[];
  /** Tandem's own data directory (tokens, permissions, logs): never reachable by tools. */
  dataDir: string;
  /** Home directory for `~` and the credential list; defaults to os.homedir(). */
  home?: string;
  /** Protected locations granted write before (from the log): see `PROTECTED_WORKSPACE_ENTRIES`. */
  writeGranted?: string[];
}

export interface PathSandbox extends PathResolver {
  /**
   * Adds a directory the tools may reach; refuses credential, system and data directories.
   * With `write: true` it may also be a protected location (`.git/hooks`, `.mcp.json`, …, which
   * need not exist yet): file tools may then change it, and commands write it.
   */
  grant(path: string, options?: { write?: boolean }): Promise<string>;
  /** Protected locations granted write, canonical. */
  writeGrants(): string[];
  /** Granted directories, canonical. */
  granted(): string[];
  /**
   * Every rule except "inside the workspace or a granted directory": for tools whose target is
   * deliberately elsewhere (self_clone). System, credential and data-dir rules still apply.
   */
  resolveOutsideWorkspace(path: string, intent: 'read' | 'write'): Promise<string>;
  /** Initial grants that were refused (each with the reason), once the sandbox has set up. */
  refusedGrants(): Promise<Array<{ path: string; reason: string }>>;
}

interface Roots {
  workspace: string;
  /** The workspace as given (it differs from `workspace` when a component is a symlink). */
  givenWorkspace: string;
  home: string;
  /** The credential locations under each home directory (as given and as resolved), absolute. */
  credentials: string[][];
  dataDirs: string[];
  granted: string[];
  /** Protected locations a driver granted write for the session. */
  writeGrants: string[];
  refused: Array<{ path: string; reason: string }>;
}

/**
 * The path sandbox (requirements P4), one per session. Every tool that touches a path calls
 * `resolve(path, intent)` and uses only the path it returns: canonical (symlinks resolved, also
 * for paths not yet created), inside the workspace or a granted directory, outside system,
 * credential and data directories. Refusals are `SandboxError`s naming the rule.
 *
 * What `resolve` cannot prevent on its own is a path being swapped for a symlink after it was
 * checked; tools open files through `openVerified` (safe-open.ts), which closes that gap.
 */
export function createPathSandbox(options: PathSandboxOptions): PathSandbox {
  // Shared with `roots` so `granted()` can answer synchronously; initial grants appear once
  // they are validated (on the first resolve, grant or refusedGrants call).
  const grantedList: string[] = [];
  const writeGrantList: string[] = [...(options.writeGranted ?? [])];
  let roots: Promise<Roots> | undefined;
  const setUp = () => (roots ??= loadRoots(options, grantedList, writeGrantList));

  async function check(input: string, intent: 'read' | 'write', requireContainment: boolean): Promise<string> {
    const r = await setUp();
    if (typeof input !== 'string' || input.trim() === '' || input.includes('\0')) {
      throw new SandboxError(
        'invalid_path',
        String(input),
        `"${String(input)}" is not a usable path: give a file or directory path, relative to the workspace or absolute`,
      );
    }
    const expanded = expandHome(input, r.home);
    const lexical = path.resolve(r.workspace, expanded);
    const allowedRoots = [r.workspace, ...r.granted];
    const lexicalInside = [...allowedRoots, r.givenWorkspace].some(
      (root) => isWithin(lexical, root) || isWithin(path.resolve(r.givenWorkspace, expanded), root),
    );
    if (requireContainment && hasParentStep(expanded) && !lexicalInside) {
      throw new SandboxError('parent_escape', input, `${input} climbs out of the workspace with "..": paths must stay inside ${r.workspace}${grantedNote(r)}`);
    }
    let real: string;
    try {
      real = await realPathAllowingMissing(lexical);
    } catch (error) {
      throw new SandboxError('invalid_path', input, `${input} cannot be resolved (${(error as Error).message})`);
    }
    const shown = real === lexical ? input : `${input} (resolves to ${real})`;
    for (const list of r.credentials) {
      const credential = credentialPathIn(real, list) ?? credentialPathIn(lexical, list);
      if (credential) {
        throw new SandboxError(
          'credential_directory',
          input,
          `${shown} is inside the credential location ${credential}; credentials are never readable or writable by tools, not even in a granted directory`,
        );
      }
    }
    const dataDir = r.dataDirs.find((dir) => isWithinProtected(real, dir) || isWithinProtected(lexical, dir));
    if (dataDir) {
      throw new SandboxError(
        'data_directory',
        input,
        `${shown} is inside Tandem's data directory ${dataDir}, which tools can never ${intent === 'read' ? 'read' : 'change'}`,
      );
    }
    if (intent === 'write') {
      const hit = protectedLocationOf(real, allowedRoots) ?? protectedLocationOf(lexical, [r.givenWorkspace, ...allowedRoots]);
      if (hit && !r.writeGrants.some((g) => isWithinProtected(hit, g) || isWithinProtected(real, g))) {
        throw new SandboxError('protected_path', input, protectedRefusal(shown, hit, r.workspace));
      }
    }
    if (allowedRoots.some((root) => isWithin(real, root))) return real;
    const system = systemDirectoryOf(real);
    if (system) {
      throw new SandboxError('system_directory', input, `${shown} is inside the system directory ${system}; system directories are off limits to tools`);
    }
    if (!requireContainment) return real;
    throw new SandboxError(
      'outside_workspace',
      input,
      `${shown} is outside the workspace ${r.workspace}${grantedNote(r)}; work inside it, or ask the user to grant the directory`,
    );
  }

  return {
    resolve: (input, intent) => check(input, intent, true),
    resolveOutsideWorkspace: (input, intent) => check(input, intent, false),
    async grant(input: string, grantOptions?: { write?: boolean }): Promise<string> {
      const r = await setUp();
      const location = await protectedTarget(input, r);
      if (location) {
        if (!grantOptions?.write) {
          throw new SandboxError(
            'protected_path',
            input,
            `${input} is a protected location (${location}); grant it with write: true (sandbox:grant { path, write: true }) to let the agent change it in this session`,
          );
        }
        if (!r.writeGrants.includes(location)) r.writeGrants.push(location);
        return location;
      }
      const real = await validateGrant(input, r);
      if (!r.granted.includes(real)) r.granted.push(real);
      return real;
    },
    granted: () => [...grantedList],
    writeGrants: () => [...writeGrantList],
    async refusedGrants() {
      return [...(await setUp()).refused];
    },
  };
}

async function loadRoots(options: PathSandboxOptions, granted: string[], writeGrants: string[]): Promise<Roots> {
  const givenHome = path.resolve(options.home ?? os.homedir());
  const home = await realPathAllowingMissing(givenHome).catch(() => givenHome);
  const workspace = await realPathAllowingMissing(path.resolve(options.workspace));
  const givenData = path.resolve(expandHome(options.dataDir, givenHome));
  const dataReal = await realPathAllowingMissing(givenData).catch(() => givenData);
  const roots: Roots = {
    workspace,
    givenWorkspace: path.resolve(options.workspace),
    home,
    credentials: unique([home, givenHome]).map(credentialPathsUnder),
    dataDirs: unique([dataReal, givenData]),
    granted,
    writeGrants,
    refused: [],
  };
  for (const dir of options.granted ?? []) {
    try {
      const real = await validateGrant(dir, roots);
      if (!roots.granted.includes(real)) roots.granted.push(real);
    } catch (error) {
      roots.refused.push({ path: dir, reason: (error as Error).message });
    }
  }
  return roots;
}

async function validateGrant(input: string, r: Roots): Promise<string> {
  if (typeof input !== 'string' || input.trim() === '' || input.includes('\0')) {
    throw new SandboxError('invalid_path', String(input), `"${String(input)}" is not a directory path that can be granted`);
  }
  const lexical = path.resolve(r.workspace, expandHome(input, r.home));
  let real: string;
  try {
    real = await fs.realpath(lexical);
  } catch {
    throw new SandboxError('invalid_path', input, `cannot grant ${input}: it does not exist`);
  }
  if (!(await fs.stat(real)).isDirectory()) {
    throw new SandboxError('not_a_directory', input, `cannot grant ${input}: only directories can be granted`);
  }
  for (const list of r.credentials) {
    const credential = credentialPathIn(real, list) ?? credentialPathIn(lexical, list);
    if (credential)
      throw new SandboxError(
        'credential_directory',
        input,
        `cannot grant ${input}: it is inside the credential location ${credential}, which can never be granted`,
      );
  }
  const dataDir = r.dataDirs.find((dir) => isWithinProtected(real, dir) || isWithinProtected(lexical, dir));
  if (dataDir)
    throw new SandboxError('data_directory', input, `cannot grant ${input}: it is inside Tandem's data directory ${dataDir}, which can never be granted`);
  if (real === path.parse(real).root)
    throw new SandboxError('system_directory', input, `cannot grant ${input}: granting the file-system root would expose every system directory`);
  const system = systemDirectoryOf(real);
  if (system) throw new SandboxError('system_directory', input, `cannot grant ${input}: it is inside the system directory ${system}`);
  return real;
}

function expandHome(p: string, home: string): string {
  if (p === '~') return home;
  if (p.startsWith('~/')) return path.join(home, p.slice(2));
  return p;
}

function hasParentStep(p: string): boolean {
  return p.split(/[\\/]+/).includes('..');
}

/** The protected location a grant names (resolved; it may not exist yet), or undefined for an ordinary directory. */
async function protectedTarget(input: string, r: Roots): Promise<string | undefined> {
  if (typeof input !== 'string' || input.trim() === '' || input.includes('\0')) return undefined;
  const lexical = path.resolve(r.workspace, expandHome(input, r.home));
  const real = await realPathAllowingMissing(lexical).catch(() => lexical);
  const roots = [r.workspace, ...r.granted];
  return protectedLocationOf(real, roots) ? real : protectedLocationOf(lexical, [r.givenWorkspace, ...roots]) ? lexical : undefined;
}

function protectedRefusal(shown: string, location: string, workspace: string): string {
  const rel = path.relative(workspace, location);
  const name = rel && !rel.startsWith('..') ? rel : location;
  return `${shown} is protected: ${name} holds git hooks or configuration, or Tandem's and other agents' settings (MCP servers, skills, agents), which could run code later outside the sandbox or widen the agent's powers. Nothing was changed. A driver can allow it for this session with sandbox:grant { path: "${name}", write: true } (TUI: /grant ${name} write)`;
}

function grantedNote(r: Roots): string {
  return r.granted.length > 0 ? ` (or the granted ${r.granted.join(', ')})` : '';
}

function unique(items: string[]): string[] {
  return [...new Set(items)];
}
