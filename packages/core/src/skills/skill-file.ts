import { parseYamlDocument } from '../base/yaml-document.js';

export const SKILL_FILE = 'SKILL.md';
export const MAX_SKILL_NAME = 64;
export const MAX_SKILL_DESCRIPTION = 1024;
const NAME = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/** A `SKILL.md` as read: its frontmatter (optional fields kept) and body. */
export interface SkillFile {
  name: string;
  description: string;
  /** `command:` makes the skill a tool `skill__NAME`. */
  command?: string;
  /** Every frontmatter field, as written (license, allowed-tools, metadata, …). */
  frontmatter: Record<string, unknown>;
  body: string;
}

export type SkillParse = { ok: true; skill: SkillFile } | { ok: false; reason: string };

const FENCE = /^---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

/**
 * Parses a `SKILL.md` of the folder `folder` (Agent Skills format): YAML frontmatter between
 * `---` lines with `name` (≤ 64, `[a-z0-9-]`, equal to the folder name) and `description`
 * (≤ 1024). Tolerant like other agents: a BOM, CRLF, extra fields, a quoted or folded
 * description. What it cannot accept comes back as a reason saying what to fix.
 */
export function parseSkillFile(text: string, folder: string): SkillParse {
  const source = text.replace(/^\uFEFF/, '');
  const match = FENCE.exec(source);
  if (!match) return { ok: false, reason: 'SKILL.md has no frontmatter: start it with a --- line, `name:` and `description:`, then ---' };
  const doc = parseYamlDocument(match[1] ?? '');
  if (doc.errors.length > 0) return { ok: false, reason: `the frontmatter is not valid YAML: ${doc.errors[0]!.message.split('\n')[0]}` };
  const data = doc.toJS() as unknown;
  if (!data || typeof data !== 'object' || Array.isArray(data)) return { ok: false, reason: 'the frontmatter must be YAML key: value pairs' };
  const frontmatter = data as Record<string, unknown>;
  const name = typeof frontmatter.name === 'string' ? frontmatter.name.trim() : '';
  const description = typeof frontmatter.description === 'string' ? frontmatter.description.trim() : '';
  if (!name) return { ok: false, reason: 'the frontmatter has no `name`' };
  if (name.length > MAX_SKILL_NAME || !NAME.test(name))
    return {
      ok: false,
      reason: `name "${name.slice(0, 80)}" must be at most ${MAX_SKILL_NAME} characters of a-z, 0-9 and - (no leading, trailing or double -)`,
    };
  if (name !== folder) return { ok: false, reason: `name "${name}" must equal the folder name "${folder}"` };
  if (!description) return { ok: false, reason: 'the frontmatter has no `description` (say what the skill does and when to use it)' };
  if (description.length > MAX_SKILL_DESCRIPTION)
    return { ok: false, reason: `description is ${description.length} characters; the limit is ${MAX_SKILL_DESCRIPTION}` };
  const command = frontmatter.command;
  if (command !== undefined && (typeof command !== 'string' || command.trim() === ''))
    return { ok: false, reason: '`command` must be a non-empty string (a shell command line)' };
  const skill: SkillFile = { name, description, frontmatter, body: source.slice(match[0].length).trim() };
  if (typeof command === 'string') skill.command = command.trim();
  return { ok: true, skill };
}
