import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { writeFileAtomicSync } from '../base/atomic-write-sync.js';
import { discoverSkills, type DiscoveryOptions, type Skill } from '../skills/discover-skills.js';
import { SKILL_FILE } from '../skills/skill-file.js';
import type { SkillRoot } from '../skills/skill-roots.js';

/** The most of the profile the agent's prompt and a reflection read. */
export const MAX_PROFILE_CHARS = 4_000;

/**
 * One agent's own place in the data directory (ARCHITECTURE "…self-evolution"):
 * `<data-dir>/agents/NAME/skills/` (its private skills, loaded only for it),
 * `<data-dir>/agents/NAME/profile.md` (its competence profile) and `evolution/` (signals,
 * the reflections' log and the backups that make each change reversible).
 */
export class AgentLibrary {
  readonly dir: string;
  readonly skillsDir: string;
  readonly profileFile: string;
  readonly evolutionDir: string;

  constructor(
    dataDir: string,
    readonly agent: string,
  ) {
    this.dir = path.join(dataDir, 'agents', agent);
    this.skillsDir = path.join(this.dir, 'skills');
    this.profileFile = path.join(this.dir, 'profile.md');
    this.evolutionDir = path.join(this.dir, 'evolution');
  }

  /** The skill root of its private library (first for its turns). */
  skillRoot(): SkillRoot {
    return { dir: this.skillsDir, label: `agent ${this.agent} (learned)`, global: false };
  }

  /** Its learned skills; `options.checkCommand` judges their commands as for any skill. */
  skills(options: DiscoveryOptions): Skill[] {
    return discoverSkills([this.skillRoot()], options).skills;
  }

  profile(): string {
    try {
      return readFileSync(this.profileFile, 'utf8').slice(0, MAX_PROFILE_CHARS);
    } catch {
      return '';
    }
  }

  skillFile(name: string): string {
    return path.join(this.skillsDir, name, SKILL_FILE);
  }

  /** The current text of a file of the library (undefined when it does not exist). */
  read(file: string): string | undefined {
    try {
      return readFileSync(file, 'utf8');
    } catch {
      return undefined;
    }
  }

  /** Writes a file of the library (its folder made as needed). */
  write(file: string, text: string): void {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileAtomicSync(file, text);
  }

  /** Puts a file back as it was: its old text, or gone (with its skill folder when that is left empty). */
  restore(file: string, previous: string | undefined): void {
    if (previous !== undefined) {
      this.write(file, previous);
      return;
    }
    rmSync(file, { force: true });
    const folder = path.dirname(file);
    if (folder.startsWith(`${this.skillsDir}${path.sep}`) && existsSync(folder)) rmSync(folder, { recursive: true, force: true });
  }

  /** A skill's SKILL.md as a reflection writes it: instructions only (never a `command:`). */
  static skillText(name: string, description: string, body: string, reflection: string): string {
    return [
      '---',
      `name: ${name}`,
      `description: ${JSON.stringify(description)}`,
      'metadata:',
      '  origin: tandem-reflection',
      `  reflection: ${reflection}`,
      '---',
      body.trim(),
      '',
    ].join('\n');
  }

  /** Makes the evolution folder and writes one backup file (what a change replaced). */
  writeBackup(id: string, backup: unknown): void {
    const file = path.join(this.evolutionDir, 'backups', `${id}.json`);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, `${JSON.stringify(backup, null, 2)}\n`, { mode: 0o600 });
  }

  readBackup<T>(id: string): T | undefined {
    try {
      return JSON.parse(readFileSync(path.join(this.evolutionDir, 'backups', `${id}.json`), 'utf8')) as T;
    } catch {
      return undefined;
    }
  }
}
