import type { Skill } from './discover-skills.js';
import { skillToolName } from './skill-tool-name.js';

/** Default room for the skills list in the system prompt, in characters (~1.5k tokens). */
export const DEFAULT_SKILLS_PROMPT_CHARS = 6_000;
const DESCRIPTION_STEPS = [Infinity, 240, 120, 60];

/**
 * The system prompt's skills section: each skill's name and description, within `budget`
 * characters — descriptions are shortened first, then the last skills are left out with a
 * line saying how many. Undefined when there are no skills.
 */
export function skillsPromptSection(skills: readonly Skill[], budget = DEFAULT_SKILLS_PROMPT_CHARS): string | undefined {
  if (skills.length === 0) return undefined;
  const head =
    'Skills (instructions for particular tasks, kept in folders): when a description fits the task, call read_skill with its name first and follow what it says. A skill marked with a tool name can also be run as that tool.';
  for (const max of DESCRIPTION_STEPS) {
    const lines = skills.map((s) => line(s, max));
    const text = [head, ...lines].join('\n');
    if (text.length <= budget) return text;
  }
  const lines: string[] = [head];
  let used = head.length;
  let shown = 0;
  for (const s of skills) {
    const next = line(s, DESCRIPTION_STEPS.at(-1) ?? 60);
    if (used + next.length + 1 + 80 > budget) break;
    lines.push(next);
    used += next.length + 1;
    shown += 1;
  }
  lines.push(`… and ${skills.length - shown} more skill(s) not listed for space; read_skill with an unknown name lists every name.`);
  return lines.join('\n');
}

function line(skill: Skill, max: number): string {
  const description = skill.description.replace(/\s+/g, ' ');
  const shown = description.length > max ? `${description.slice(0, max - 1)}…` : description;
  return `- ${skill.name}: ${shown}${skill.command ? ` (tool: ${skillToolName(skill.name)})` : ''}`;
}
