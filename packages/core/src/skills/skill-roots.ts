import { join } from 'node:path';

/** One place skills are read from; `global` roots hold third-party text and are scanned for injection. */
export interface SkillRoot {
  dir: string;
  label: string;
  global: boolean;
}

/**
 * The roots in priority order (first wins on a name clash): the project's `.tandem/skills`,
 * `.agents/skills` and `.claude/skills` (Claude Code's), the user's `<data-dir>/skills`, then the
 * global `~/.agents/skills` and `~/.claude/skills`.
 */
export function skillRoots(args: { workspace: string; dataDir: string; home: string }): SkillRoot[] {
  return [
    { dir: join(args.workspace, '.tandem', 'skills'), label: 'project .tandem/skills', global: false },
    { dir: join(args.workspace, '.agents', 'skills'), label: 'project .agents/skills', global: false },
    { dir: join(args.workspace, '.claude', 'skills'), label: 'project .claude/skills', global: false },
    { dir: join(args.dataDir, 'skills'), label: 'user <data-dir>/skills', global: false },
    { dir: join(args.home, '.agents', 'skills'), label: 'global ~/.agents/skills', global: true },
    { dir: join(args.home, '.claude', 'skills'), label: 'global ~/.claude/skills', global: true },
  ];
}
