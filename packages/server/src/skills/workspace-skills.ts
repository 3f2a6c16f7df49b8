import { checkCommandBlacklist, skillCommandTool } from '@tandem/coding-tools';
import { readSkillTool, SkillCatalog, skillRoots, skillsPromptSection, type AnyTool, type EngineEvent, type SkillEntry, type TurnOptions } from '@tandem/core';
import { InstalledPackages } from '../packages/installed-packages.js';

export interface WorkspaceSkillsOptions {
  dataDir: string;
  home: string;
  /** Room for the skills list in the system prompt, in characters. */
  promptBudgetChars?: number;
}

const NOTICE_KIND = { quarantined: 'skill_quarantined', invalid: 'skill_invalid', refused: 'skill_refused', shadowed: 'skill_clash' } as const;

/**
 * Skills for the server's sessions (requirements K2, T2): one catalog per workspace (re-read when its
 * folders change), and the turn step that lists them in the system prompt, adds `read_skill`
 * and a `skill__NAME` tool per command skill, and tells the session once about each skill that
 * is quarantined, invalid, refused or shadowed by a clash.
 */
export class WorkspaceSkills {
  private readonly catalogs = new Map<string, SkillCatalog>();
  private readonly announced = new WeakMap<object, Set<string>>();
  private readonly packages: InstalledPackages;

  constructor(private readonly options: WorkspaceSkillsOptions) {
    this.packages = new InstalledPackages(options.dataDir);
  }

  catalog(workspace: string): SkillCatalog {
    let catalog = this.catalogs.get(workspace);
    if (!catalog) {
      // The packages' roots are asked at each look: a package added or removed counts from the next turn.
      const { dataDir, home } = this.options;
      catalog = new SkillCatalog(() => skillRoots({ workspace, dataDir, home, packages: this.packages.skills() }), {
        home,
        checkCommand: checkCommandBlacklist,
      });
      this.catalogs.set(workspace, catalog);
    }
    return catalog;
  }

  list(workspace: string): SkillEntry[] {
    return this.catalog(workspace).current().entries;
  }

  extendTurn(session: { meta: { cwd: string }; emit(body: EngineEvent): unknown }, options: TurnOptions): TurnOptions {
    const catalog = this.catalog(session.meta.cwd);
    const { skills, entries } = catalog.current();
    this.announce(session, entries);
    if (skills.length === 0) return options;
    const { environment, prompt } = options;
    const taken = new Set(environment.tools.map((t) => t.name));
    const added: AnyTool[] = [readSkillTool];
    for (const skill of skills) if (skill.command) added.push(skillCommandTool({ ...skill, command: skill.command }));
    const section = skillsPromptSection(skills, this.options.promptBudgetChars);
    return {
      ...options,
      environment: { ...environment, tools: [...environment.tools, ...added.filter((t) => !taken.has(t.name))] },
      prompt: { ...prompt, system: section ? `${prompt.system}\n\n${section}` : prompt.system },
    };
  }

  private announce(session: { emit(body: EngineEvent): unknown }, entries: readonly SkillEntry[]): void {
    let seen = this.announced.get(session);
    if (!seen) {
      seen = new Set();
      this.announced.set(session, seen);
    }
    for (const entry of entries) {
      if (entry.status === 'ok') continue;
      const key = `${entry.dir}\u0000${entry.status}\u0000${entry.reason ?? ''}`;
      if (seen.has(key)) continue;
      seen.add(key);
      session.emit({ type: 'extension_notice', kind: NOTICE_KIND[entry.status], name: entry.name, message: `${entry.dir}: ${entry.reason ?? entry.status}` });
    }
  }
}
