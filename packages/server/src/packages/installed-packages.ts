import { statSync } from 'node:fs';
import type { PackageSkills } from '@tandem/core';
import { PackageRegistry, type PackageEntry } from './package-registry.js';

/**
 * The packages in use, read again only when `<data-dir>/packages.json` changes (one stat per
 * question): what the skill roots, the turn step and `packages:list` ask many times per turn.
 */
export class InstalledPackages {
  readonly registry: PackageRegistry;
  private stamp = '';
  private entries: PackageEntry[] = [];

  constructor(dataDir: string) {
    this.registry = new PackageRegistry(dataDir);
  }

  list(): PackageEntry[] {
    const stamp = fileStamp(this.registry.file);
    if (stamp !== this.stamp) {
      this.entries = this.registry.list();
      this.stamp = stamp;
    }
    return this.entries;
  }

  /** Each package's skill folders, for the skill roots. */
  skills(): PackageSkills[] {
    return this.list()
      .filter((p) => p.skills.length > 0)
      .map((p) => ({ name: p.name, dir: this.registry.dirOf(p.name), skills: p.skills }));
  }
}

function fileStamp(file: string): string {
  try {
    const st = statSync(file);
    return `${st.mtimeMs}/${st.size}/${st.ino}`;
  } catch {
    return '-';
  }
}
