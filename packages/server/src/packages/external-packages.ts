import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { ConflictError, ForbiddenError, InvalidInputError, NotFoundError } from '../errors/domain-errors.js';
import { git, SYMLINK_MODE, treeEntries } from './git.js';
import { checkPackageName, defaultPackageName, parsePackageSource } from './package-source.js';
import { PackageRegistry, type PackageEntry } from './package-registry.js';
import { findSymlinks, scanPackage, type PackageScan } from './package-scan.js';
import { removeShims, writeShims } from './package-shims.js';

/** What `add` and `update` did, for the CLI to print. */
export interface PackageChange {
  entry: PackageEntry;
  /** Shims written in `<data-dir>/bin`. */
  shims: string[];
  /** Found but not used (a bin without the executable bit, a shim name taken by another package). */
  notes: string[];
  /** For `update`: the commit before. */
  previousCommit?: string;
}

export interface PackageListing extends PackageEntry {
  dir: string;
  /** `ok`, or `missing` when its folder is gone. */
  status: 'ok' | 'missing';
}

/**
 * External packages (ARCHITECTURE "External packages"): a git repository cloned verbatim into
 * `<data-dir>/packages/NAME`, recognised as skill-shaped and/or CLI-shaped, recorded in
 * `<data-dir>/packages.json` (never inside the package), its executables shimmed in
 * `<data-dir>/bin`. Installs fail closed: a source outside the allow-list, a repository holding
 * a symbolic link, or one with neither skills nor executables is refused and nothing is left.
 */
export class ExternalPackages {
  readonly registry: PackageRegistry;

  constructor(readonly dataDir: string) {
    this.registry = new PackageRegistry(dataDir);
  }

  list(): PackageListing[] {
    return this.registry.list().map((entry) => {
      const dir = this.registry.dirOf(entry.name);
      return { ...entry, dir, status: existsSync(dir) ? 'ok' : 'missing' };
    });
  }

  async add(input: { source: string; name?: string; cwd: string; signal?: AbortSignal; now?: Date }): Promise<PackageChange> {
    const source = parsePackageSource(input.source, input.cwd);
    const name = input.name !== undefined ? checkPackageName(input.name) : defaultPackageName(source);
    if (!name) throw new InvalidInputError(`no package name can be made from "${input.source}"; pass one with --name`);
    const existing = this.registry.get(name);
    if (this.registry.problem) throw new ConflictError(this.registry.problem);
    if (existing)
      throw new ConflictError(`a package named "${name}" is already added; update it with \`tandem packages update ${name}\`, or pick another --name`);
    const target = this.registry.dirOf(name);
    if (existsSync(target)) throw new ConflictError(`${target} already exists but is not in packages.json; remove that folder, or pick another --name`);

    mkdirSync(this.registry.packagesDir, { recursive: true });
    const staging = path.join(this.registry.packagesDir, `.incoming-${randomBytes(6).toString('hex')}`);
    try {
      await git(['clone', '--no-checkout', '--quiet', '--', source.address, staging], input.signal ? { signal: input.signal } : {});
      await refuseSymlinksInTree(staging, 'HEAD', input.source);
      await git(['reset', '--hard', '--quiet', 'HEAD'], { cwd: staging });
      refuseSymlinksOnDisk(staging, input.source);
      const scan = scanPackage(staging);
      if (!scan.kind) {
        throw new InvalidInputError(
          `${input.source} is neither skill-shaped (no SKILL.md) nor CLI-shaped (no package.json "bin", no executable in bin/): nothing to add`,
        );
      }
      const commit = (await git(['rev-parse', 'HEAD'], { cwd: staging })).trim();
      renameSync(staging, target);
      const at = (input.now ?? new Date()).toISOString();
      return this.record(name, target, scan, { source: source.given, commit, addedAt: at, updatedAt: at });
    } catch (err) {
      rmSync(staging, { recursive: true, force: true });
      throw err;
    }
  }

  /** Pulls the package's default branch and scans it again; a new head with a symbolic link is refused and the old one kept. */
  async update(name: string, options: { signal?: AbortSignal; now?: Date } = {}): Promise<PackageChange> {
    const entry = this.require(name);
    const dir = this.registry.dirOf(name);
    if (!existsSync(dir))
      throw new NotFoundError(`the folder of package "${name}" (${dir}) is gone; remove it with \`tandem packages rm ${name}\` and add it again`);
    await git(['fetch', '--quiet', 'origin', 'HEAD'], { cwd: dir, ...(options.signal ? { signal: options.signal } : {}) });
    const head = (await git(['rev-parse', 'FETCH_HEAD'], { cwd: dir })).trim();
    await refuseSymlinksInTree(dir, head, entry.source, 'the update was refused; the package stays at its current commit');
    await git(['reset', '--hard', '--quiet', head], { cwd: dir });
    const scan = scanPackage(dir);
    if (!scan.kind) {
      throw new InvalidInputError(
        `package "${name}" at ${head.slice(0, 12)} has no SKILL.md and no executable any more; remove it with \`tandem packages rm ${name}\``,
      );
    }
    const change = this.record(name, dir, scan, {
      source: entry.source,
      commit: head,
      addedAt: entry.addedAt,
      updatedAt: (options.now ?? new Date()).toISOString(),
      previousInstall: entry.install,
    });
    return { ...change, previousCommit: entry.commit };
  }

  /** Removes the package's folder, its shims and its entry. */
  remove(name: string): { shims: string[]; dir: string } {
    this.require(name);
    const dir = this.registry.dirOf(name);
    const shims = removeShims(this.registry.binDir, name);
    rmSync(dir, { recursive: true, force: true });
    this.registry.remove(name);
    return { shims, dir };
  }

  private require(name: string): PackageEntry {
    const entry = this.registry.get(name);
    if (this.registry.problem) throw new ConflictError(this.registry.problem);
    if (!entry) throw new NotFoundError(`no package named "${name}" (tandem packages ls lists them)`);
    return entry;
  }

  private record(
    name: string,
    dir: string,
    scan: PackageScan,
    base: { source: string; commit: string; addedAt: string; updatedAt: string; previousInstall?: PackageEntry['install'] },
  ): PackageChange {
    const shims = writeShims(this.registry.binDir, name, dir, scan.bins);
    const notes = [...scan.notes, ...shims.conflicts.map((bin) => `no shim for "${bin}": ${path.join(this.registry.binDir, bin)} belongs to something else`)];
    const previous = base.previousInstall;
    const install = scan.install
      ? previous && previous.fingerprint === scan.install.fingerprint && previous.status === 'done'
        ? previous
        : { ...scan.install, status: 'pending' as const }
      : undefined;
    const entry: PackageEntry = {
      name,
      source: base.source,
      commit: base.commit,
      kind: scan.kind ?? 'skill',
      bins: scan.bins,
      skills: scan.skills,
      ...(shims.conflicts.length > 0 ? { shimConflicts: shims.conflicts } : {}),
      addedAt: base.addedAt,
      updatedAt: base.updatedAt,
      ...(install ? { install } : {}),
    };
    this.registry.put(entry);
    return { entry, shims: shims.written, notes };
  }
}

async function refuseSymlinksInTree(repo: string, rev: string, source: string, after = 'nothing was added'): Promise<void> {
  let entries;
  try {
    entries = await treeEntries(repo, rev);
  } catch {
    throw new InvalidInputError(`${source} has no commit to install (an empty repository?); ${after}`);
  }
  const links = entries.filter((e) => e.mode === SYMLINK_MODE).map((e) => e.path);
  if (links.length > 0) throw symlinkRefusal(source, links, after);
}

function refuseSymlinksOnDisk(dir: string, source: string): void {
  const links = findSymlinks(dir);
  if (links.length > 0) throw symlinkRefusal(source, links, 'nothing was added');
}

function symlinkRefusal(source: string, links: readonly string[], after: string): ForbiddenError {
  const shown = links.slice(0, 5).join(', ') + (links.length > 5 ? ` and ${links.length - 5} more` : '');
  return new ForbiddenError(
    `${source} holds symbolic links (${shown}); packages with symbolic links are refused, because a link can carry a read outside the sandbox; ${after}`,
  );
}
