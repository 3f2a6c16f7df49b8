import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { walkDefinitionFolders } from '../base/walk-definition-folders.js';
import { scanForInjection } from '../memory/injection-scanner.js';
import type { CommandCheck } from '../ports/command-check.js';
import { parseSkillFile, SKILL_FILE } from './skill-file.js';
import type { SkillRoot } from './skill-roots.js';

/** A usable skill: offered in the prompt, readable with read_skill, a tool when it has a command. */
export interface Skill {
  name: string;
  description: string;
  command?: string;
  /** The skill's folder (commands run there). */
  dir: string;
  root: string;
  frontmatter: Record<string, unknown>;
  body: string;
}

export type SkillStatus = 'ok' | 'shadowed' | 'invalid' | 'quarantined' | 'refused';

/** Every folder found, usable or not, for `tandem skills` and `skills:list`. */
export interface SkillEntry {
  name: string;
  description: string;
  root: string;
  dir: string;
  status: SkillStatus;
  reason?: string;
  command?: string;
}

export interface Discovery {
  skills: Skill[];
  entries: SkillEntry[];
}

/**
 * Reads every `<root>/<folder>/SKILL.md` in root order. The first skill of a name wins; later
 * ones are `shadowed` (the clash named once, in their reason). Skills of global roots are
 * third-party text: scanned for prompt injection and `quarantined` when flagged. A skill whose
 * command the blacklist refuses is `refused` (never offered as a tool).
 */
/** How skills are read: `checkCommand` judges each skill's command (the host's command blacklist). */
export interface DiscoveryOptions {
  checkCommand: CommandCheck;
  home?: string;
}

export function discoverSkills(roots: readonly SkillRoot[], options: DiscoveryOptions): Discovery {
  const skills: Skill[] = [];
  const entries: SkillEntry[] = [];
  const taken = new Map<string, Skill>();
  for (const { root, name: folder, path: dir } of walkDefinitionFolders(roots, 'folders')) {
    let text: string;
    try {
      text = readFileSync(join(dir, SKILL_FILE), 'utf8');
    } catch {
      continue;
    }
    const parsed = parseSkillFile(text, folder);
    if (!parsed.ok) {
      entries.push({ name: folder, description: '', root: root.label, dir, status: 'invalid', reason: parsed.reason });
      continue;
    }
    const s = parsed.skill;
    const entry: SkillEntry = { name: s.name, description: s.description, root: root.label, dir, status: 'ok', ...(s.command ? { command: s.command } : {}) };
    const winner = taken.get(s.name);
    if (winner) {
      entries.push({ ...entry, status: 'shadowed', reason: `a skill of the same name in ${winner.root} (${winner.dir}) comes first` });
      continue;
    }
    if (root.global) {
      const scan = scanForInjection(`${s.description}\n${s.command ?? ''}\n${s.body}`);
      if (scan.verdict === 'blocked') {
        entries.push({
          ...entry,
          status: 'quarantined',
          reason: `quarantined: third-party skill text flagged by the injection scanner (${scan.reason.replace(/^refused: /, '')})`,
        });
        continue;
      }
    }
    if (s.command) {
      const verdict = options.checkCommand(s.command, options.home ? { home: options.home } : {});
      if (verdict.blocked) {
        entries.push({ ...entry, status: 'refused', reason: `its command is refused by the command blacklist: ${verdict.message}` });
        continue;
      }
    }
    const skill: Skill = {
      name: s.name,
      description: s.description,
      dir,
      root: root.label,
      frontmatter: s.frontmatter,
      body: s.body,
      ...(s.command ? { command: s.command } : {}),
    };
    taken.set(s.name, skill);
    skills.push(skill);
    entries.push(entry);
  }
  return { skills, entries };
}
