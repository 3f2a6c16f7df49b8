import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { discoverSkills, type Discovery } from './discover-skills.js';
import { SKILL_FILE } from './skill-file.js';
import type { SkillRoot } from './skill-roots.js';

/**
 * The skills of one workspace, re-read when their folders change (no restart): `current()`
 * compares the modification times of the roots, the skill folders and their SKILL.md files
 * with the last read, and discovers again only when one moved. Cost per call: one stat per
 * root and per skill, nothing proportional to session length.
 */
export class SkillCatalog {
  private signature = '';
  private last: Discovery = { skills: [], entries: [] };

  private readonly rootsNow: () => readonly SkillRoot[];

  /** `roots` may be a function, asked at each `current()`: roots that come and go (external packages) need no new catalog. */
  constructor(
    roots: readonly SkillRoot[] | (() => readonly SkillRoot[]),
    private readonly options: { home?: string } = {},
  ) {
    this.rootsNow = typeof roots === 'function' ? roots : () => roots;
  }

  get roots(): readonly SkillRoot[] {
    return this.rootsNow();
  }

  current(): Discovery {
    const roots = this.rootsNow();
    const signature = this.computeSignature(roots);
    if (signature !== this.signature) {
      this.last = discoverSkills(roots, this.options);
      this.signature = signature;
    }
    return this.last;
  }

  private computeSignature(roots: readonly SkillRoot[]): string {
    const parts: string[] = [];
    for (const root of roots) {
      const rootStat = stamp(root.dir);
      parts.push(`${root.dir}:${rootStat}`);
      if (rootStat === '-') continue;
      if (root.folders) {
        for (const folder of root.folders) parts.push(`${folder}:${stamp(folder)}:${stamp(join(folder, SKILL_FILE))}`);
        continue;
      }
      let folders: string[] = [];
      try {
        folders = readdirSync(root.dir);
      } catch {
        continue;
      }
      for (const folder of folders) parts.push(`${folder}:${stamp(join(root.dir, folder))}:${stamp(join(root.dir, folder, SKILL_FILE))}`);
    }
    return parts.join('|');
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
