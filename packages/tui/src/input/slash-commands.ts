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
  | { kind: 'unknown'; name: string };

export const SLASH_HELP =
  '/new (save memory, start a fresh conversation) · /compact (summarise older turns) · /in TEXT (type TEXT + Enter into the running command) · ' +
  '/jobs or F3 (background jobs, x stops one) · /permissions or F4 (stored rules, r revokes one) · /audit or F5 (latest tool calls) · /memory or F6 (MEMORY.md, HISTORY.md) · ' +
  'Ctrl-T (type into the running command; Ctrl-T or Esc back to chat) · /quit · //text sends "/text"';

export function parseInput(line: string): InputCommand {
  const text = line.trim();
  if (!text.startsWith('/')) return { kind: 'send', text: line };
  if (text.startsWith('//')) return { kind: 'send', text: text.slice(1) };
  const name = text.slice(1).split(/\s+/)[0]?.toLowerCase() ?? '';
  switch (name) {
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
    case 'jobs':
      return { kind: 'panel', panel: 'jobs' };
    case 'permissions':
    case 'perms':
      return { kind: 'panel', panel: 'permissions' };
    case 'audit':
      return { kind: 'panel', panel: 'audit' };
    case 'memory':
      return { kind: 'panel', panel: 'memory' };
    default:
      return { kind: 'unknown', name };
  }
}
