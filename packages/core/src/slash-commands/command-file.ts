import { parseYamlDocument } from '../base/yaml-document.js';

/** A custom slash command as its markdown file says: `/NAME args` sends `body` with the arguments put in. */
export interface CustomCommandFile {
  description: string;
  /** Claude Code's `argument-hint`, e.g. `[pr-number] [priority]`. */
  argumentHint?: string;
  body: string;
}

export type CommandFileParse = { ok: true; command: CustomCommandFile } | { ok: false; reason: string };

const FENCE = /^---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;
const MAX_DESCRIPTION = 200;

/**
 * Parses `NAME.md` in the format Claude Code and opencode use: optional YAML frontmatter
 * (`description`, `argument-hint`; other fields such as `allowed-tools` or `model` are read and
 * left alone), then the prompt. Without a description the first line of the prompt is one.
 */
export function parseCommandFile(text: string): CommandFileParse {
  const source = text.replace(/^\uFEFF/, '');
  const match = FENCE.exec(source);
  let frontmatter: Record<string, unknown> = {};
  let body = source;
  if (match) {
    const doc = parseYamlDocument(match[1] ?? '');
    if (doc.errors.length > 0) return { ok: false, reason: `the frontmatter is not valid YAML: ${doc.errors[0]!.message.split('\n')[0]}` };
    const data = doc.toJS() as unknown;
    if (data !== null && data !== undefined && (typeof data !== 'object' || Array.isArray(data)))
      return { ok: false, reason: 'the frontmatter must be YAML key: value pairs' };
    frontmatter = (data ?? {}) as Record<string, unknown>;
    body = source.slice(match[0].length);
  }
  body = body.trim();
  if (!body) return { ok: false, reason: 'has no prompt: write what the command asks below the frontmatter' };
  const given = typeof frontmatter.description === 'string' ? frontmatter.description.trim() : '';
  const firstLine = body.split('\n').find((line) => line.trim().length > 0) ?? '';
  const description = clip(given || firstLine.replace(/^#+\s*/, '').trim());
  const hint = frontmatter['argument-hint'] ?? frontmatter.argumentHint;
  return {
    ok: true,
    command: { description, body, ...(typeof hint === 'string' && hint.trim() ? { argumentHint: hint.trim() } : {}) },
  };
}

function clip(text: string): string {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length > MAX_DESCRIPTION ? `${flat.slice(0, MAX_DESCRIPTION - 1)}…` : flat;
}
