/** Why a variable may not be expanded into a server's launch (Tandem's tokens, keys), or undefined. */
export type Withheld = (name: string) => string | undefined;

/** Looks up `${secret:NAME}` references (the secret store); undefined when there is none. */
export type SecretLookup = (name: string) => string | undefined;

export interface Expansion {
  value: string;
  /** The secret values that went into `value`, so tool output can be masked. */
  secrets: string[];
}

const REFERENCE = /\$\{([^}]*)\}/g;

/**
 * Expands `${VAR}`, `${VAR:-default}` (the default when VAR is unset or empty) and
 * `${secret:NAME}` in one config string. Throws a readable error for an unset variable with no
 * default or a missing secret, naming it.
 */
export function expandVars(text: string, env: NodeJS.ProcessEnv, secret: SecretLookup, withheld?: Withheld): Expansion {
  const secrets: string[] = [];
  const value = text.replace(REFERENCE, (_whole, inner: string) => {
    if (inner.startsWith('secret:')) {
      const name = inner.slice('secret:'.length);
      const found = secret(name);
      if (found === undefined) throw new Error(`the secret "${name}" is not in the secret store; add the server again with \`tandem mcp add\``);
      secrets.push(found);
      return found;
    }
    const split = inner.indexOf(':-');
    const name = split === -1 ? inner : inner.slice(0, split);
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new Error(`"\${${inner}}" is not a variable reference; use \${NAME} or \${NAME:-default}`);
    const refusal = withheld?.(name);
    if (refusal) throw new Error(refusal);
    const set = env[name];
    if (set !== undefined && set !== '') return set;
    if (split !== -1) return inner.slice(split + 2);
    throw new Error(`the environment variable ${name} is not set (write \${${name}:-default} for a default)`);
  });
  return { value, secrets };
}

/** Expands every value of a record (env, headers); keys are kept as written. */
export function expandRecord(
  record: Record<string, string> | undefined,
  env: NodeJS.ProcessEnv,
  secret: SecretLookup,
  withheld?: Withheld,
): { value: Record<string, string>; secrets: string[] } {
  const value: Record<string, string> = {};
  const secrets: string[] = [];
  for (const [key, raw] of Object.entries(record ?? {})) {
    const expanded = expandVars(raw, env, secret, withheld);
    value[key] = expanded.value;
    secrets.push(...expanded.secrets);
  }
  return { value, secrets };
}
