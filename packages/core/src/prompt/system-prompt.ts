/** What the system prompt needs to know about a tool: its name. */
export interface PromptTool {
  name: string;
}

/** Tools that wait for setting up (not offered to the model), grouped by the clause saying how. */
export interface NotSetUp {
  names: string[];
  how: string;
}

export interface SystemPromptInput {
  /** The session's workspace. */
  cwd: string;
  /** The tools offered to the model. */
  tools: readonly PromptTool[];
  /** Tools not offered because they need setting up first (see `ToolDefinition.setup`); named apart, with how. */
  notSetUp?: readonly NotSetUp[];
  /** The project's AGENTS.md, already loaded (see `loadAgentsMd`). */
  agentsMd?: string;
  /**
   * Instructions beyond the project's AGENTS.md, in order: the project's CLAUDE.md when it has no
   * AGENTS.md, the user's own `<data-dir>/AGENTS.md` (see `loadInstructions`). `source` names the file.
   */
  instructions?: readonly { source: string; text: string }[];
  /** For the date line; defaults to the current time. */
  now?: Date;
}

const WORKING_RULES = [
  'For work with several steps, start with a short plan of one to three lines, then carry it out.',
  'Do not narrate each tool call. When the work is done, give one short summary of what changed and what, if anything, is left.',
  'To change an existing file, use edit_file. Use write_file only to create a new file or to replace a file wholly.',
  'Read a file before you edit it; if it changed since you read it, read it again.',
  'Chain shell commands that depend on each other with && so that a failure stops the chain.',
  'Before a destructive command (deleting files, discarding git changes, dropping data), write one line saying what it will do and why.',
  'Errors come back to you as tool results. Read them and act on them: fix the arguments, try another way, or tell the user what blocks you. Do not repeat a call that failed the same way.',
  'People may send a message while you work; it appears in the conversation, and you take it into account from then on.',
];

/** How nested instruction files reach the model (see nested-instructions.ts). */
export const NESTED_NOTE =
  'Subfolders may have their own AGENTS.md (or CLAUDE.md). When you work in one, its instructions come with the result of your first tool call there; they apply to work under that folder and take precedence there over more general ones.';

/**
 * The engine's system prompt (requirements A12): behaviour in plain sentences, the workspace, the
 * tools by name (their schemas travel separately), and the project's AGENTS.md if any.
 */
export function buildSystemPrompt(input: SystemPromptInput): string {
  const date = (input.now ?? new Date()).toISOString().slice(0, 10);
  const names = input.tools.map((t) => t.name);
  const waiting = input.notSetUp ?? [];
  const parts = [
    'You are Tandem, a coding agent working in a terminal session that several people may watch or steer at once.',
    `The workspace is ${input.cwd}. Relative paths are resolved against it, and commands run in it. Today is ${date}.`,
    names.length > 0
      ? `Your tools: ${names.join(', ')}. Each tool's description says when to prefer another one.`
      : 'You have no tools in this session; answer from the conversation alone.',
    ...(waiting.length > 0
      ? [
          `Not set up here, so not offered (if the user asks for one, tell them how to set it up): ${waiting.map((w) => `${w.names.join(', ')}: ${w.how}`).join('; ')}.`,
        ]
      : []),
    `How to work:\n${WORKING_RULES.map((rule) => `- ${rule}`).join('\n')}`,
  ];
  const agents = input.agentsMd?.trim();
  if (agents) parts.push(`Project instructions from AGENTS.md in the workspace (follow them where they apply):\n\n${agents}`);
  for (const { source, text } of input.instructions ?? []) {
    if (text.trim()) parts.push(`Instructions from ${source} (follow them where they apply):\n\n${text.trim()}`);
  }
  if (input.instructions !== undefined) parts.push(NESTED_NOTE);
  return parts.join('\n\n');
}
