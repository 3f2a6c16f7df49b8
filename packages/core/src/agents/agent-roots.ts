import { join } from 'node:path';
import type { AgentScope } from './agent-file.js';

/** One folder agent files (`NAME.md`) are read from. */
export interface AgentRoot {
  dir: string;
  scope: AgentScope;
}

/** The roots in priority order (first wins on a name clash): `<workspace>/.tandem/agents`, then `<data-dir>/agents`. */
export function agentRoots(args: { workspace: string; dataDir: string }): AgentRoot[] {
  return [
    { dir: join(args.workspace, '.tandem', 'agents'), scope: 'project' },
    { dir: join(args.dataDir, 'agents'), scope: 'user' },
  ];
}
