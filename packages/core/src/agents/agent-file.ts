import { parseYamlDocument } from '../base/yaml-document.js';
import { z } from 'zod';
import { type ClaudeModelAlias, isClaudeModelAlias, mapToolNames } from './claude-agent-format.js';

export const COMMANDER = 'commander';
export const MAX_AGENT_NAME = 64;
export const MAX_AGENT_DESCRIPTION = 1024;
/** The contract's `[a-z0-9-]`, starting with a letter or digit (so `@NAME` can address it). */
export const AGENT_NAME = /^[a-z0-9][a-z0-9-]*$/;
/** Names the session gives out itself: the commander and anonymous workers (`worker-N`). */
const RESERVED = /^(commander|worker-\d+)$/;

/** Where a definition was read from; the project wins over the user on a name clash. */
export type AgentScope = 'project' | 'user';

/** One agent as its markdown file defines it (docs contracts.md, "Agents"). */
export interface AgentDefinition {
  name: string;
  /** When to use it: the commander reads this verbatim. */
  description: string;
  /** `provider/model`; undefined means the session's model (`model: inherit` too). */
  model?: string;
  /** Claude Code's `model: sonnet | opus | haiku`: that family on the session's provider (see resolveModelAlias). */
  modelAlias?: ClaudeModelAlias;
  /** What was read but cannot be honoured (unknown tool names, Claude Code's per-tool rules), said once where agents are listed. */
  warnings?: string[];
  /** Allow-list of tool names; undefined means every non-orchestration tool. */
  tools?: string[];
  /** May be handed the floor with `hand_off_to`. */
  interactive: boolean;
  /** The body: its system prompt. */
  prompt: string;
  /** The file it came from (absolute). */
  file: string;
  scope: AgentScope;
  /** An external agent: this command runs (through run_command's gate) instead of a model; `{task}` marks the task. */
  command?: string;
  /** Self-evolution: its turns record signals and a periodic reflection may grow its private skills. */
  evolve?: boolean;
}

/** What is wrong with one agent file: which file, which field (undefined for the file as a whole), what to do. */
export interface AgentFileError {
  file: string;
  field?: string;
  message: string;
}

export type AgentParse = { ok: true; agent: AgentDefinition } | { ok: false; error: AgentFileError };

/** `file: field \`x\`: message` — the one-line form the CLI and logs print. */
export function formatAgentFileError(error: AgentFileError): string {
  return `${error.file}: ${error.field ? `field \`${error.field}\`: ` : ''}${error.message}`;
}

const FENCE = /^---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

const toolList = z.preprocess(
  // Claude-style `tools: Read, Grep` as well as a YAML list.
  (value) =>
    typeof value === 'string'
      ? value
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
      : value,
  z.array(z.string({ error: 'each entry must be a tool name (a string)' }).trim().min(1, 'a tool name may not be empty'), {
    error: 'must be a list of tool names, e.g. [read_file, grep_files], or a comma-separated string',
  }),
);

const FrontmatterSchema = z.looseObject({
  name: z
    .string({
      error: (issue) => (issue.input === undefined ? 'is missing: give the agent a name of a-z, 0-9 and - (the file name without .md)' : 'must be a string'),
    })
    .trim()
    .max(MAX_AGENT_NAME, `must be at most ${MAX_AGENT_NAME} characters`)
    .regex(AGENT_NAME, 'must be a-z, 0-9 and - only, starting with a letter or digit')
    .refine((name) => !RESERVED.test(name), 'is reserved (commander and worker-N are names the session gives out)'),
  description: z
    .string({ error: (issue) => (issue.input === undefined ? 'is missing: say what the agent does and when the commander should use it' : 'must be a string') })
    .trim()
    .min(1, 'is empty: say what the agent does and when the commander should use it')
    .max(MAX_AGENT_DESCRIPTION, `must be at most ${MAX_AGENT_DESCRIPTION} characters`),
  model: z
    .string({ error: 'must be a string provider/model, e.g. anthropic/claude-sonnet-4-5' })
    .trim()
    .refine(
      (model) => /^[a-z0-9][a-z0-9.-]*\/\S+$/.test(model) || model === 'inherit' || isClaudeModelAlias(model),
      'must be provider/model (e.g. anthropic/claude-sonnet-4-5), inherit, or sonnet, opus or haiku',
    )
    .optional(),
  tools: toolList.optional(),
  interactive: z.boolean({ error: 'must be true or false' }).optional(),
  command: z
    .string({ error: 'must be the command line of an agent CLI, e.g. claude -p {task}' })
    .trim()
    .min(1, 'is empty: give the command line of an agent CLI, e.g. claude -p {task}')
    .max(4000, 'must be at most 4000 characters')
    .optional(),
  evolve: z.boolean({ error: 'must be true or false' }).optional(),
});

/**
 * Parses an agent file `NAME.md`: YAML frontmatter between `---` lines (`name` equal to the file
 * name, `description`, optional `model`, `tools`, `interactive`, `command` for an external agent,
 * `evolve` for self-evolution), the body is the system prompt.
 * Tolerates a BOM, CRLF and extra fields; every refusal names the file and the field.
 */
export function parseAgentFile(text: string, file: string, scope: AgentScope, options: { claude?: boolean } = {}): AgentParse {
  const fail = (message: string, field?: string): AgentParse => ({ ok: false, error: { file, ...(field ? { field } : {}), message } });
  const source = text.replace(/^\uFEFF/, '');
  const match = FENCE.exec(source);
  if (!match) return fail('has no frontmatter: start it with a --- line, `name:` and `description:`, then --- and the system prompt');
  const doc = parseYamlDocument(match[1] ?? '');
  if (doc.errors.length > 0) return fail(`the frontmatter is not valid YAML: ${doc.errors[0]!.message.split('\n')[0]}`);
  const data = doc.toJS() as unknown;
  if (!data || typeof data !== 'object' || Array.isArray(data)) return fail('the frontmatter must be YAML key: value pairs');
  const parsed = FrontmatterSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return fail(issue.message, issue.path.map(String).join('.') || undefined);
  }
  const fm = parsed.data;
  // Claude Code names an agent by its `name`, whatever the file is called; Tandem's own files match.
  const expected = fileStem(file);
  if (fm.name !== expected && !options.claude) return fail(`is "${fm.name}" but must equal the file name "${expected}" (rename one of them)`, 'name');
  const prompt = source.slice(match[0].length).trim();
  // An external agent's body is optional: when present it goes before each task it is given.
  if (!prompt && !fm.command) return fail('has no body: write the agent’s system prompt below the frontmatter', 'body');
  const agent: AgentDefinition = { name: fm.name, description: fm.description, interactive: fm.interactive ?? false, prompt, file, scope };
  if (fm.model && isClaudeModelAlias(fm.model)) agent.modelAlias = fm.model;
  else if (fm.model && fm.model !== 'inherit') agent.model = fm.model;
  const warnings: string[] = [];
  if (fm.tools) {
    const mapped = mapToolNames(fm.tools);
    agent.tools = mapped.tools;
    if (mapped.unknown.length > 0) warnings.push(`tools: ${mapped.unknown.join(', ')}: no such tool in Tandem, left out`);
    if (mapped.patterns.length > 0) warnings.push(`tools: ${mapped.patterns.join(', ')}: the rule in parentheses is not applied (Tandem's permissions decide)`);
  }
  if (warnings.length > 0) agent.warnings = warnings;
  if (fm.command) agent.command = fm.command;
  if (fm.evolve) agent.evolve = true;
  return { ok: true, agent };
}

function fileStem(file: string): string {
  const base = file.split(/[\\/]/).pop() ?? file;
  return base.replace(/\.md$/i, '');
}
