import { readFileSync } from 'node:fs';
import { walkDefinitionFolders } from '../base/walk-definition-folders.js';
import { type AgentDefinition, type AgentFileError, type AgentScope, parseAgentFile } from './agent-file.js';
import type { AgentRoot } from './agent-roots.js';

export type AgentStatus = 'ok' | 'shadowed' | 'invalid';

/** Every agent file found, usable or not, for `tandem agents`. */
export interface AgentEntry {
  name: string;
  description: string;
  model?: string;
  /** Claude Code's `sonnet` / `opus` / `haiku`: that family on the session's provider. */
  modelAlias?: string;
  tools?: string[];
  interactive: boolean;
  /** An external agent's command line. */
  command?: string;
  /** Opted into self-evolution. */
  evolve?: boolean;
  file: string;
  scope: AgentScope;
  status: AgentStatus;
  /** What was read but cannot be honoured (e.g. unknown tool names); the agent is used without it. */
  warnings?: string[];
  /** Why it is not used: the clash for `shadowed`, the file and field for `invalid`. */
  error?: AgentFileError;
}

export interface AgentDiscovery {
  /** The usable definitions, project first, each name once. */
  agents: AgentDefinition[];
  entries: AgentEntry[];
}

/**
 * Reads every `<root>/*.md` in root order. The first definition of a name wins (the project's
 * over the user's); later ones are `shadowed`. A file that does not parse is `invalid`, with
 * the file and field in its error, and is never offered.
 */
export function discoverAgents(roots: readonly AgentRoot[]): AgentDiscovery {
  const agents: AgentDefinition[] = [];
  const entries: AgentEntry[] = [];
  const taken = new Map<string, AgentDefinition>();
  for (const { root, name, path: file } of walkDefinitionFolders(roots, 'files')) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (err) {
      entries.push(invalid(name, file, root.scope, { file, message: `cannot be read: ${(err as Error).message}` }));
      continue;
    }
    const parsed = parseAgentFile(text, file, root.scope, { claude: root.claude ?? false });
    if (!parsed.ok) {
      entries.push(invalid(name, file, root.scope, parsed.error));
      continue;
    }
    const agent = parsed.agent;
    const entry = entryOf(agent);
    const winner = taken.get(agent.name);
    if (winner) {
      entries.push({ ...entry, status: 'shadowed', error: { file, message: `the ${winner.scope} definition ${winner.file} of the same name comes first` } });
      continue;
    }
    taken.set(agent.name, agent);
    agents.push(agent);
    entries.push(entry);
  }
  return { agents, entries };
}

function entryOf(agent: AgentDefinition): AgentEntry {
  return {
    name: agent.name,
    description: agent.description,
    ...(agent.model ? { model: agent.model } : {}),
    ...(agent.modelAlias ? { modelAlias: agent.modelAlias } : {}),
    ...(agent.tools ? { tools: agent.tools } : {}),
    ...(agent.warnings ? { warnings: agent.warnings } : {}),
    interactive: agent.interactive,
    ...(agent.command ? { command: agent.command } : {}),
    ...(agent.evolve ? { evolve: true } : {}),
    file: agent.file,
    scope: agent.scope,
    status: 'ok',
  };
}

function invalid(name: string, file: string, scope: AgentScope, error: AgentFileError): AgentEntry {
  return { name, description: '', interactive: false, file, scope, status: 'invalid', error };
}
