import { join } from 'node:path';

/** One place skills are read from; `global` roots hold third-party text and are scanned for injection. */
export interface SkillRoot {
  dir: string;
  label: string;
  global: boolean;
  /** The skill folders of this root (absolute), when they are named rather than every folder of `dir` (an external package's). */
  folders?: readonly string[];
}

/** An external package's skills, as `<data-dir>/packages.json` records them. */
export interface PackageSkills {
  name: string;
  /** The package folder, `<data-dir>/packages/NAME`. */
  dir: string;
  /** Its skill folders, relative to `dir` (`.` for the package itself). */
  skills: readonly string[];
}

/**
 * The roots in priority order (first wins on a name clash): the project's `.tandem/skills`,
 * `.agents/skills` and `.claude/skills` (Claude Code's), each external package's skills
 * (third-party text, scanned like the global roots), the user's `<data-dir>/skills`, then the
 * global `~/.agents/skills` and `~/.claude/skills`.
 */
export function skillRoots(args: { workspace: string; dataDir: string; home: string; packages?: readonly PackageSkills[] }): SkillRoot[] {
  return [
    { dir: join(args.workspace, '.tandem', 'skills'), label: 'project .tandem/skills', global: false },
    { dir: join(args.workspace, '.agents', 'skills'), label: 'project .agents/skills', global: false },
    { dir: join(args.workspace, '.claude', 'skills'), label: 'project .claude/skills', global: false },
    ...(args.packages ?? []).map((p) => ({ dir: p.dir, label: `package ${p.name}`, global: true, folders: p.skills.map((s) => join(p.dir, s)) })),
    { dir: join(args.dataDir, 'skills'), label: 'user <data-dir>/skills', global: false },
    { dir: join(args.home, '.agents', 'skills'), label: 'global ~/.agents/skills', global: true },
    { dir: join(args.home, '.claude', 'skills'), label: 'global ~/.claude/skills', global: true },
  ];
}
