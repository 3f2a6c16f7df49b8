import { APPROVAL_MODES, SHARE_ROLES, ShareNameSchema, type ApprovalMode, type ShareRole } from '@tandem/shared';
import type { PanelKind } from '../panels/types.js';

/** What a submitted input line asks for. */
export type InputCommand =
  | { kind: 'send'; text: string }
  | { kind: 'new' }
  | { kind: 'compact' }
  | { kind: 'quit' }
  | { kind: 'help' }
  /** Type a line into the running command's terminal (e.g. answer its prompt). */
  | { kind: 'input'; text: string }
  | { kind: 'panel'; panel: PanelKind }
  /** `/model provider/model` (null: show the current one and what the server offers). */
  | { kind: 'model'; model: string | null }
  /** `/mode ask|auto-edit|read-only` (null: show the current one); `cycle`: Shift-Tab's next mode. */
  | { kind: 'mode'; mode: ApprovalMode | null; cycle?: boolean }
  | { kind: 'title'; title: string }
  /** Discard the conversation (after a yes/no question), without memory consolidation. */
  | { kind: 'clear' }
  | { kind: 'search'; on: boolean | null }
  /** Show or hide anonymous workers' steps in this terminal (also Ctrl-O). */
  | { kind: 'workers' }
  /** What the session's turns used and cost, per model. */
  | { kind: 'cost' }
  /** Read AGENTS.md and memory again into the session's frozen system prompt. */
  | { kind: 'reload' }
  /** `/share [ROLE] [NAME]`: let one person into this session with a role (a link and an attach line). */
  | { kind: 'share'; role: ShareRole; name: string }
  /** `/export [FILE]`: the session's transcript as markdown (a `.json` FILE: the events as JSON) in a file. */
  | { kind: 'export'; file: string | null }
  /** `/init`: the agent writes or improves the project's AGENTS.md. */
  | { kind: 'init' }
  /** `/undo [N]`: take the last N turns back (files and conversation). */
  | { kind: 'undo'; turns: number }
  /** `/grant PATH [write]`: widen the sandbox to PATH; `write` also for a protected location. */
  | { kind: 'grant'; path: string; write: boolean }
  | { kind: 'bad'; message: string }
  /** Not a built-in command: a custom command (`.tandem/commands/NAME.md` …) if one has the name; `rest` is its arguments. */
  | { kind: 'unknown'; name: string; rest?: string };

export const SLASH_HELP =
  '/model provider/model (switch the model for the next turn) · /mode ask|auto-edit|read-only or Shift-Tab (approval mode) · /title TEXT · ' +
  '/search on|off (search only: the model gets web_search and nothing else) · ' +
  '/clear (discard the conversation without saving to memory; asks first) · /sessions or F7 (switch session) · ' +
  '/share [viewer|approver|driver] [NAME] (let one person into this session: prints a web link and a tandem attach line, token shown once) · ' +
  '/shares or F9 (who has a share and who is connected now; r revokes one) · ' +
  'Ctrl-J newline · Ctrl-G compose in $VISUAL/$EDITOR · F2 or Enter on an empty line: answer a permission request · ' +
  "/undo [N] (take the last N turns back: files and conversation) · /diff (the last turn's changes) · /rewind (pick a turn to go back to) · /grant PATH [write] (let the agent write there; write also for .git/hooks, .mcp.json, …) · " +
  '/new (save memory, start a fresh conversation) · /compact (summarise older turns) · /in TEXT (type TEXT + Enter into the running command) · ' +
  '/jobs or F3 (background jobs, x stops one) · /permissions or F4 (stored rules, r revokes one) · /audit or F5 (latest tool calls) · /memory or F6 (MEMORY.md, HISTORY.md) · /mcp or F8 (MCP servers, skills and packages, with status) · ' +
  'Ctrl-T (type into the running command; Ctrl-T or Esc back to chat) · ' +
  'Esc or Ctrl-C (cancel the running turn) · Ctrl-C (clear the input line; on an empty line, twice to quit) · ' +
  '/export [FILE] (the transcript as markdown, or JSON for FILE.json) · /init (the agent writes or improves AGENTS.md) · ' +
  "@NAME message (to that agent; Tab completes the name) · /workers or Ctrl-O (show or hide anonymous workers' steps) · " +
  '/cost (tokens and money this session, cache reads apart) · /reload (read AGENTS.md and memory again into the prompt) · /quit · //text sends "/text"';

export function parseInput(line: string): InputCommand {
  const text = line.trim();
  if (!text.startsWith('/')) return { kind: 'send', text: line };
  if (text.startsWith('//')) return { kind: 'send', text: text.slice(1) };
  const name = text.slice(1).split(/\s+/)[0]?.toLowerCase() ?? '';
  const rest = text.replace(/^\/\S+\s*/, '').trim();
  switch (name) {
    case 'model':
      if (rest && !/^[^\s/]+\/\S+$/.test(rest)) return { kind: 'bad', message: `/model: "${rest}" is not provider/model (e.g. /model openai/gpt-4.1-mini)` };
      return { kind: 'model', model: rest || null };
    case 'mode': {
      if (!rest) return { kind: 'mode', mode: null };
      const mode = APPROVAL_MODES.find((candidate) => candidate === rest.toLowerCase());
      return mode ? { kind: 'mode', mode } : { kind: 'bad', message: `/mode: "${rest}" is not a mode; use ${APPROVAL_MODES.join(', ')}` };
    }
    case 'title':
    case 'rename':
      return rest ? { kind: 'title', title: rest } : { kind: 'bad', message: '/title: give the new title, e.g. /title fix the login bug' };
    case 'clear':
      return { kind: 'clear' };
    case 'search': {
      const word = rest.toLowerCase();
      if (word === '') return { kind: 'search', on: null };
      if (word === 'on' || word === 'off') return { kind: 'search', on: word === 'on' };
      return { kind: 'bad', message: `/search: "${rest}" is not on or off` };
    }
    case 'workers':
      return { kind: 'workers' };
    case 'cost':
    case 'usage':
      return { kind: 'cost' };
    case 'reload':
      return { kind: 'reload' };
    case 'share':
      return parseShare(rest);
    case 'shares':
      return { kind: 'panel', panel: 'shares' };
    case 'undo': {
      if (!rest) return { kind: 'undo', turns: 1 };
      const turns = Number(rest);
      return Number.isInteger(turns) && turns >= 1
        ? { kind: 'undo', turns }
        : { kind: 'bad', message: `/undo: "${rest}" is not a number of turns (e.g. /undo 2)` };
    }
    case 'diff':
      return { kind: 'panel', panel: 'diff' };
    case 'rewind':
      return { kind: 'panel', panel: 'rewind' };
    case 'grant': {
      const match = /^(.+?)(?:\s+(write))?$/.exec(rest);
      if (!match) return { kind: 'bad', message: '/grant: give a path, e.g. /grant ../shared-lib or /grant .git/hooks write' };
      return { kind: 'grant', path: match[1]!, write: match[2] === 'write' };
    }
    case 'sessions':
    case 'session':
      return { kind: 'panel', panel: 'sessions' };
    case 'new':
      return { kind: 'new' };
    case 'compact':
      return { kind: 'compact' };
    case 'quit':
    case 'exit':
    case 'q':
      return { kind: 'quit' };
    case 'help':
    case '?':
      return { kind: 'help' };
    case 'in':
    case 'input':
      return { kind: 'input', text: text.replace(/^\/\S+\s?/, '') };
    case 'export':
      return { kind: 'export', file: rest || null };
    case 'init':
      return { kind: 'init' };
    case 'jobs':
      return { kind: 'panel', panel: 'jobs' };
    case 'permissions':
    case 'perms':
      return { kind: 'panel', panel: 'permissions' };
    case 'audit':
      return { kind: 'panel', panel: 'audit' };
    case 'memory':
      return { kind: 'panel', panel: 'memory' };
    case 'mcp':
    case 'skills':
    case 'packages':
    case 'extensions':
      return { kind: 'panel', panel: 'extensions' };
    default:
      return { kind: 'unknown', name, ...(rest ? { rest } : {}) };
  }
}

/**
 * The built-in command names (aliases included), for Tab completion and to say which custom
 * commands they shadow. Every name here parses to a built-in (slash-commands.test.ts checks).
 */
export const BUILTIN_COMMANDS: readonly string[] = [
  'audit',
  'clear',
  'compact',
  'exit',
  'export',
  'extensions',
  'help',
  'in',
  'init',
  'input',
  'jobs',
  'mcp',
  'memory',
  'mode',
  'model',
  'new',
  'permissions',
  'perms',
  'q',
  'quit',
  'rename',
  'search',
  'session',
  'sessions',
  'share',
  'shares',
  'skills',
  'title',
  'workers',
];

/** Who a share is for when `/share` names no one. */
export const DEFAULT_SHARE_NAME = 'guest';

/** `/share [ROLE] [NAME]`: the role first (default viewer), the rest is the name (default guest). */
function parseShare(rest: string): InputCommand {
  const [word = '', ...others] = rest.split(/\s+/).filter(Boolean);
  const lower = word.toLowerCase();
  if (lower === 'ls' || lower === 'list') return { kind: 'panel', panel: 'shares' };
  if (lower === 'revoke') return { kind: 'bad', message: '/share revoke: open /shares (F9), select the share, press r' };
  const roles = SHARE_ROLES.join(', ');
  if (word === '') return { kind: 'share', role: 'viewer', name: DEFAULT_SHARE_NAME };
  const role = SHARE_ROLES.find((candidate) => candidate === lower);
  if (!role) return { kind: 'bad', message: `/share: "${word}" is not a role; the roles are ${roles} (e.g. /share approver carla)` };
  const name = others.join(' ');
  if (name === '') return { kind: 'share', role, name: DEFAULT_SHARE_NAME };
  const parsed = ShareNameSchema.safeParse(name);
  if (!parsed.success) return { kind: 'bad', message: `/share: "${name}" cannot be a share's name: at most 64 characters, no control characters` };
  return { kind: 'share', role, name: parsed.data };
}
