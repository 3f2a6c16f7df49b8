import { join } from 'node:path';
import type { AgentScope } from './agent-file.js';

/** One folder agent files (`NAME.md`) are read from. */
export interface AgentRoot {
  dir: string;
  scope: AgentScope;
  /** Claude Code's folder: its `name` may differ from the file name, its tools and model names are mapped. */
  claude?: boolean;
}

/**
 * The roots in priority order (first wins on a name clash): `<workspace>/.tandem/agents`,
 * `<workspace>/.claude/agents`, `<data-dir>/agents`, then `~/.claude/agents` (when `home` is given).
 */
export function agentRoots(args: { workspace: string; dataDir: string; home?: string | undefined }): AgentRoot[] {
  return [
    { dir: join(args.workspace, '.tandem', 'agents'), scope: 'project' },
    { dir: join(args.workspace, '.claude', 'agents'), scope: 'project', claude: true },
    { dir: join(args.dataDir, 'agents'), scope: 'user' },
    ...(args.home ? [{ dir: join(args.home, '.claude', 'agents'), scope: 'user' as const, claude: true }] : []),
  ];
}
