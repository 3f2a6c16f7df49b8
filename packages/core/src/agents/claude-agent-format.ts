/**
 * Claude Code's subagent files (`.claude/agents/NAME.md`) read as Tandem agents: its tool names
 * mapped to Tandem's, its model aliases resolved against the session's provider. What has no
 * counterpart is reported, never dropped in silence.
 */

/** Claude Code's tool names and the Tandem tool each becomes. */
export const CLAUDE_TOOL_NAMES: Readonly<Record<string, string>> = {
  Read: 'read_file',
  Edit: 'edit_file',
  MultiEdit: 'edit_file',
  Write: 'write_file',
  Bash: 'run_command',
  Grep: 'grep_files',
  Glob: 'search_files',
  LS: 'list_directory',
  WebFetch: 'web_fetch',
  WebSearch: 'web_search',
};

/** `model:` values Claude Code knows besides a full model id. */
export const CLAUDE_MODEL_ALIASES = ['sonnet', 'opus', 'haiku'] as const;
export type ClaudeModelAlias = (typeof CLAUDE_MODEL_ALIASES)[number];

export interface MappedTools {
  /** Tandem tool names, each once, in the order given. */
  tools: string[];
  /** Names Tandem has no tool for (Claude Code's TodoWrite, NotebookEdit, Task …). */
  unknown: string[];
  /** Claude Code's per-tool rules (`Bash(git:*)`) that Tandem does not apply (its own permissions do). */
  patterns: string[];
}

/**
 * Maps a `tools:` list: Claude Code names become Tandem's; Tandem names (snake_case,
 * `mcp__SERVER__TOOL`, `skill__NAME`) stay; anything else is `unknown`. `Bash(git:*)` counts as
 * `Bash`, with the pattern reported.
 */
export function mapToolNames(names: readonly string[]): MappedTools {
  const tools: string[] = [];
  const unknown: string[] = [];
  const patterns: string[] = [];
  for (const raw of names) {
    const match = /^([A-Za-z]+)\((.*)\)$/.exec(raw);
    const name = match ? (match[1] as string) : raw;
    if (match) patterns.push(raw);
    const mapped = CLAUDE_TOOL_NAMES[name] ?? (/^[a-z][a-z0-9_]*$/.test(name) ? name : undefined);
    if (!mapped) unknown.push(raw);
    else if (!tools.includes(mapped)) tools.push(mapped);
  }
  return { tools, unknown, patterns };
}

export function isClaudeModelAlias(value: string): value is ClaudeModelAlias {
  return (CLAUDE_MODEL_ALIASES as readonly string[]).includes(value);
}

/**
 * The model a `sonnet` / `opus` / `haiku` agent runs on: the first model of the session's own
 * provider whose id names that family (`anthropic/claude-sonnet-4-5`, or
 * `openrouter/anthropic/claude-sonnet-4.5` on OpenRouter); undefined when the provider has none.
 */
export function resolveModelAlias(alias: ClaudeModelAlias, sessionModel: string, models: readonly { id: string; provider: string }[]): string | undefined {
  const provider = sessionModel.split('/')[0] ?? '';
  return models.find((model) => model.provider === provider && model.id.toLowerCase().includes(alias))?.id;
}
