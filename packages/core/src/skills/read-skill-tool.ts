import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { z } from 'zod';
import { defineTool, ToolError, type ToolServices } from '../tools/define.js';
import type { SkillCatalog } from './skill-catalog.js';

const MAX_FILES = 100;
const MAX_DEPTH = 3;
const SKIP = new Set(['node_modules', '.git']);

/** The skill tools' host service: the session's skills. */
export interface SkillServices {
  skills?: SkillCatalog;
}

declare module '../tools/define.js' {
  interface ToolServices extends SkillServices {}
}

/** The session's skills, as a host puts them in `ToolServices`. */
export function skillsOf(services: ToolServices): SkillCatalog {
  const skills = services.skills;
  if (!skills) throw new ToolError('skills are not available in this session');
  return skills;
}

export const readSkillTool = defineTool({
  name: 'read_skill',
  description:
    'Reads a skill listed in the system prompt: its instructions (the body of its SKILL.md) and the files beside it (scripts, references, templates; read them with read_file by the folder shown). Read a skill before doing a task its description fits.',
  schema: z.object({ name: z.string().min(1).describe('The skill name, as listed') }),
  danger: 'safe',
  readOnly: true,
  kind: 'read',
  summary: (args) => args.name,
  async execute(args, ctx) {
    const { skills } = skillsOf(ctx.services).current();
    const skill = skills.find((s) => s.name === args.name);
    if (!skill) {
      const names = skills.map((s) => s.name).join(', ') || '(none)';
      throw new ToolError(`No skill named "${args.name}". Skills: ${names}.`);
    }
    const files = listFiles(skill.dir);
    const fileList = files.length > 0 ? files.map((f) => `- ${f}`).join('\n') : '(none)';
    return [
      `Skill ${skill.name} (${skill.root}), folder ${skill.dir}`,
      skill.command ? `Command: ${skill.command} (run it with the tool listed for it)` : undefined,
      '',
      skill.body || '(the skill has no body)',
      '',
      `Files beside SKILL.md:\n${fileList}`,
    ]
      .filter((part) => part !== undefined)
      .join('\n');
  },
});

function listFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string, depth: number) => {
    if (depth > MAX_DEPTH || out.length >= MAX_FILES) return;
    let entries: import('node:fs').Dirent[];
    try {
      entries = readdirSync(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      if (out.length >= MAX_FILES || SKIP.has(e.name)) continue;
      const path = join(d, e.name);
      if (e.isDirectory()) walk(path, depth + 1);
      else if (!(d === dir && e.name === 'SKILL.md')) out.push(relative(dir, path));
    }
  };
  walk(dir, 0);
  return out;
}
