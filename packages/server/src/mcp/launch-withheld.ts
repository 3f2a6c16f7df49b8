import { commandEnvironment, TANDEM_TOKEN_VARIABLES, type CommandEnvPolicy } from '../os-sandbox/command-env.js';
import type { Withheld } from './expand-vars.js';

/**
 * Which variables a server's `${VAR}` may not take. A server the user added themselves (user
 * scope) may take anything the user wrote, except Tandem's own tokens. A project's `.mcp.json`
 * came with the repository, and its approval shows the launch but not the values: like a
 * command, it gets none of Tandem's tokens, the provider keys, or a secret-looking variable that
 * `sandbox.passEnv` does not name.
 */
export function launchWithheld(scope: 'project' | 'user', env: NodeJS.ProcessEnv, policy: CommandEnvPolicy | undefined): Withheld {
  if (scope === 'user') {
    return (name) => (TANDEM_TOKEN_VARIABLES.includes(name) ? `\${${name}} is Tandem's own token, which is never given to an MCP server` : undefined);
  }
  const { withheld } = commandEnvironment(env, policy);
  return (name) =>
    TANDEM_TOKEN_VARIABLES.includes(name) || withheld.includes(name)
      ? `\${${name}} is withheld from MCP servers a project's .mcp.json starts (Tandem's tokens, provider keys and secret-looking variables are); add the server with \`tandem mcp add\` to give it a secret, or name the variable in sandbox.passEnv`
      : undefined;
}
