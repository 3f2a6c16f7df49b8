import { definitionFoldersSignature } from '../base/walk-definition-folders.js';
import { discoverSkills, type Discovery, type DiscoveryOptions } from './discover-skills.js';
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
    private readonly options: DiscoveryOptions,
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
    return definitionFoldersSignature(roots, 'folders', SKILL_FILE);
  }
}
