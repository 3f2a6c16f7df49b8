import { PROVIDERS } from '@tandem/ai';

/** Tandem's own tokens: never in a command's environment, whatever config.json says. */
export const TANDEM_TOKEN_VARIABLES: readonly string[] = ['TANDEM_TOKEN', 'TANDEM_VIEW_TOKEN'];

/** A variable whose name holds one of these (any case) is left out unless `sandbox.passEnv` names it. */
const SECRET_NAME = /KEY|SECRET|TOKEN|PASSWORD/i;

/**
 * Who may see what of the server's environment: the contract's "a command is never a client of
 * the server that runs it" for variables. Built once per server (see `commandEnvPolicy`).
 */
export interface CommandEnvPolicy {
  /** config.json `sandbox.passEnv`: secret-looking names the user lets through. */
  passEnv: readonly string[];
  /** Never passed, even when `passEnv` names them: Tandem's tokens, the provider keys the server uses. */
  neverPass: ReadonlySet<string>;
  /** Values never passed, whatever the variable is called (the server's tokens copied elsewhere). */
  neverValues: readonly string[];
}

export interface CommandEnvironment {
  env: Record<string, string>;
  /** Names left out, sorted: what the tool result can point at when a command fails for one. */
  withheld: string[];
  /** Of `withheld`, the names `passEnv` can never let through. */
  neverPassed: string[];
}

/**
 * The policy for a server: its tokens' values, the provider key variables (OPENAI_API_KEY, …),
 * and further variables the server reads keys from (config.json `apiKeyEnv`, `passwordEnv`).
 */
export function commandEnvPolicy(
  options: { passEnv?: readonly string[]; tokens?: readonly string[]; keyVariables?: readonly string[] } = {},
): CommandEnvPolicy {
  const neverPass = new Set<string>(TANDEM_TOKEN_VARIABLES);
  for (const provider of PROVIDERS.values()) for (const name of provider.keyEnv) neverPass.add(name);
  for (const name of options.keyVariables ?? []) neverPass.add(name);
  return {
    passEnv: [...(options.passEnv ?? [])],
    neverPass,
    neverValues: (options.tokens ?? []).filter((value) => value.length >= 8),
  };
}

/** The default policy: no passEnv, only the names (a runner built without the server's tokens). */
export const DEFAULT_COMMAND_ENV_POLICY: CommandEnvPolicy = commandEnvPolicy();

/**
 * A command's environment from the server's: every variable except Tandem's tokens, the
 * provider keys, any value holding a token, and secret-looking names (`KEY`, `SECRET`, `TOKEN`,
 * `PASSWORD`) that `passEnv` does not name. O(variables), run once per command.
 */
export function commandEnvironment(base: NodeJS.ProcessEnv, policy: CommandEnvPolicy = DEFAULT_COMMAND_ENV_POLICY): CommandEnvironment {
  const env: Record<string, string> = {};
  const withheld: string[] = [];
  const neverPassed: string[] = [];
  for (const [name, value] of Object.entries(base)) {
    if (value === undefined) continue;
    if (policy.neverPass.has(name) || policy.neverValues.some((token) => value.includes(token))) {
      withheld.push(name);
      neverPassed.push(name);
      continue;
    }
    if (SECRET_NAME.test(name) && !policy.passEnv.includes(name)) {
      withheld.push(name);
      continue;
    }
    env[name] = value;
  }
  return { env, withheld: withheld.sort(), neverPassed: neverPassed.sort() };
}

/**
 * What a command's own settings (config.json `commandEnv`, the tool's non-interactive defaults)
 * may add on top: anything but Tandem's tokens, by name or by value.
 */
export function withoutTokens(extra: Record<string, string>, policy: CommandEnvPolicy = DEFAULT_COMMAND_ENV_POLICY): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(extra)) {
    if (TANDEM_TOKEN_VARIABLES.includes(name) || policy.neverValues.some((token) => value.includes(token))) continue;
    out[name] = value;
  }
  return out;
}
