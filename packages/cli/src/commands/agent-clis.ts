import { accessSync, constants, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** A common agent CLI Tandem knows how to run as an external agent. */
export interface AgentCli {
  /** The agent's name (and its file's). */
  name: string;
  /** The program looked for on PATH. */
  program: string;
  description: string;
  /** The definition's `command:` (`{task}` is where the task goes). */
  command: string;
}

const BRIDGE_JSON = JSON.stringify({ mcpServers: { tandem: { command: 'tandem', args: ['bridge'] } } });

/**
 * The agent CLIs offered as external agents (ARCHITECTURE "External packages, external agents…"),
 * each with the command line its default definition gets. Claude Code and Codex are given
 * Tandem's bridge as an MCP server (`tandem bridge`); opencode and Gemini CLI read MCP servers
 * from their own settings files, where `tandem bridge` can be added by hand.
 */
export const AGENT_CLIS: readonly AgentCli[] = [
  {
    name: 'claude',
    program: 'claude',
    description: 'Claude Code (Anthropic’s coding agent CLI), run headless: give it a self-contained coding task; it answers with what it did.',
    command: `claude -p {task} --mcp-config '${BRIDGE_JSON}'`,
  },
  {
    name: 'codex',
    program: 'codex',
    description: 'Codex CLI (OpenAI’s coding agent), run headless with `codex exec`: give it a self-contained coding task.',
    command: `codex exec -c 'mcp_servers.tandem.command="tandem"' -c 'mcp_servers.tandem.args=["bridge"]' {task}`,
  },
  {
    name: 'opencode',
    program: 'opencode',
    description: 'opencode (an open-source coding agent CLI), run headless with `opencode run`: give it a self-contained coding task.',
    command: 'opencode run {task}',
  },
  {
    name: 'gemini',
    program: 'gemini',
    description: 'Gemini CLI (Google’s coding agent), run headless with `gemini -p`: give it a self-contained coding task.',
    command: 'gemini -p {task}',
  },
];

/** The full path of `program` on `PATH`, if it is there and executable. */
export function findOnPath(program: string, pathVariable = process.env.PATH ?? ''): string | undefined {
  for (const dir of pathVariable.split(path.delimiter)) {
    if (!dir) continue;
    const file = path.join(dir, program);
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** The known agent CLIs found on PATH. */
export function agentClisOnPath(pathVariable?: string): Array<AgentCli & { path: string }> {
  return AGENT_CLIS.flatMap((cli) => {
    const found = findOnPath(cli.program, pathVariable);
    return found ? [{ ...cli, path: found }] : [];
  });
}

/** The default definition file of an agent CLI. */
export function agentCliDefinition(cli: AgentCli): string {
  return [
    '---',
    `name: ${cli.name}`,
    `description: ${JSON.stringify(cli.description)}`,
    `command: ${JSON.stringify(cli.command)}`,
    '---',
    'You are working for Tandem, which gave you this task. Do it in the current folder and end with a short summary of what you did.',
    '',
  ].join('\n');
}

/** Writes the definition into `dir` (`<data-dir>/agents` or `<workspace>/.tandem/agents`); refuses to overwrite one. */
export function writeAgentCliDefinition(cli: AgentCli, dir: string): string {
  const file = path.join(dir, `${cli.name}.md`);
  if (existsSync(file)) throw new Error(`${file} already exists; edit it, or remove it first to get the default again`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(file, agentCliDefinition(cli), { flag: 'wx' });
  return file;
}
