import { MIN_LITERAL_LENGTH, type EnvSecret } from './env-secrets.js';
import { TOKEN_PATTERNS, highEntropyRuns, isSecretName } from './secret-patterns.js';

export interface MaskOptions {
  /** Environment whose secret-looking variables' values are hidden wherever they appear. */
  env?: Record<string, string | undefined>;
  /**
   * The same, already found (`EnvSecrets.current()`): for masking many strings against one
   * environment without reading it for each. Used instead of `env` when given.
   */
  secrets?: readonly EnvSecret[];
}

/**
 * Hides secrets in free text: the literal values of secret-named environment variables, then
 * known credential formats, then long high-entropy runs. Used for tool output the model sees
 * and for the audit log. Never throws; a non-string comes back as it is.
 */
export function maskSecrets(text: string, options: MaskOptions = {}): string {
  if (typeof text !== 'string' || text.length === 0) return text;
  let out = text;
  for (const [name, value] of options.secrets ?? secretEnvValues(options.env)) {
    // Most texts hold none of them: a scan without allocating comes first.
    if (out.includes(value)) out = out.split(value).join(`[masked ${name}]`);
  }
  for (const { kind, regex } of TOKEN_PATTERNS) {
    out = out.replace(regex, `[masked ${kind}]`);
  }
  for (const run of highEntropyRuns(out)) {
    out = out.split(run).join('[masked]');
  }
  return out;
}

/** True when a value has the shape of a credential, whatever its variable is called. */
export function looksLikeSecretValue(value: string): boolean {
  if (TOKEN_PATTERNS.some(({ regex }) => new RegExp(regex.source, regex.flags.replace('g', '')).test(value))) return true;
  return highEntropyRuns(value).length > 0;
}

/** The displayed form of one masked value: its length, never any of its characters. */
export function maskedValue(value: string): string {
  return `[masked, ${value.length} chars]`;
}

/** Secret-named variables with values long enough to mask, longest first (so overlaps mask fully). */
function secretEnvValues(env: MaskOptions['env']): Array<[string, string]> {
  if (!env) return [];
  const pairs: Array<[string, string]> = [];
  for (const [name, value] of Object.entries(env)) {
    if (typeof value === 'string' && value.length >= MIN_LITERAL_LENGTH && isSecretName(name)) pairs.push([name, value]);
  }
  return pairs.sort((a, b) => b[1].length - a[1].length);
}
