import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { writeFileAtomicSync } from '@tandem/core';

export const PACKAGES_FILE = 'packages.json';
export const PACKAGES_DIR = 'packages';
export const SHIMS_DIR = 'bin';

const BinSchema = z.object({ name: z.string(), path: z.string(), runner: z.literal('node').optional() });

/** Where a package's dependency install stands: asked once per package, the answer remembered. */
const InstallSchema = z.object({
  command: z.string(),
  manifests: z.array(z.string()),
  fingerprint: z.string(),
  /** `pending`: asked at the next turn of any session; `done` / `failed`: it ran; `declined`: a driver said no. */
  status: z.enum(['pending', 'done', 'failed', 'declined']),
  decidedBy: z.string().optional(),
  at: z.string().optional(),
  /** Why it failed (exit code, the last line). */
  reason: z.string().optional(),
});

/** One package as packages.json keeps it (outside the package folder, so an update never conflicts with it). */
export const PackageEntrySchema = z.object({
  name: z.string(),
  source: z.string(),
  commit: z.string(),
  kind: z.enum(['skill', 'cli', 'both']),
  bins: z.array(BinSchema),
  skills: z.array(z.string()),
  /** Bins of this package left without a shim (another package's shim has the name). */
  shimConflicts: z.array(z.string()).optional(),
  addedAt: z.string(),
  updatedAt: z.string(),
  install: InstallSchema.optional(),
});

export type PackageEntry = z.infer<typeof PackageEntrySchema>;
export type PackageInstall = z.infer<typeof InstallSchema>;

const FileSchema = z.object({ version: z.literal(1), packages: z.record(z.string(), PackageEntrySchema) });

/**
 * `<data-dir>/packages.json`: the registry of external packages (name, source, commit, kind,
 * bins, skills, the dependency install's state). Read fresh for every question, written
 * atomically; a damaged file reads as no packages and says so in `problem`.
 */
export class PackageRegistry {
  readonly file: string;
  readonly packagesDir: string;
  readonly binDir: string;
  problem: string | undefined;

  constructor(readonly dataDir: string) {
    this.file = path.join(dataDir, PACKAGES_FILE);
    this.packagesDir = path.join(dataDir, PACKAGES_DIR);
    this.binDir = path.join(dataDir, SHIMS_DIR);
  }

  /** The folder of a package. */
  dirOf(name: string): string {
    return path.join(this.packagesDir, name);
  }

  list(): PackageEntry[] {
    return Object.values(this.read()).sort((a, b) => a.name.localeCompare(b.name));
  }

  get(name: string): PackageEntry | undefined {
    return this.read()[name];
  }

  put(entry: PackageEntry): void {
    const all = this.read();
    all[entry.name] = entry;
    this.write(all);
  }

  /** Changes one entry in place (nothing when it is gone). */
  update(name: string, change: (entry: PackageEntry) => PackageEntry): PackageEntry | undefined {
    const all = this.read();
    const entry = all[name];
    if (!entry) return undefined;
    all[name] = change(entry);
    this.write(all);
    return all[name];
  }

  remove(name: string): void {
    const all = this.read();
    delete all[name];
    this.write(all);
  }

  private read(): Record<string, PackageEntry> {
    this.problem = undefined;
    if (!existsSync(this.file)) return {};
    try {
      const parsed = FileSchema.safeParse(JSON.parse(readFileSync(this.file, 'utf8')));
      if (parsed.success) return parsed.data.packages;
      this.problem = `${this.file} is not a valid packages file (${parsed.error.issues[0]?.message ?? 'bad shape'}); no package is in use until it is fixed`;
    } catch (err) {
      this.problem = `${this.file} could not be read (${(err as Error).message}); no package is in use until it is fixed`;
    }
    return {};
  }

  private write(packages: Record<string, PackageEntry>): void {
    if (this.problem) throw new Error(this.problem);
    mkdirSync(this.dataDir, { recursive: true });
    writeFileAtomicSync(this.file, `${JSON.stringify({ version: 1, packages }, null, 2)}\n`);
  }
}
