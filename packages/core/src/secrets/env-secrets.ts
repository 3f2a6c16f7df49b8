import { isSecretName } from './secret-patterns.js';

/** Values shorter than this are not replaced literally: "1" or "true" would mangle all text. */
export const MIN_LITERAL_LENGTH = 6;

/** A secret-named variable and its value, as masked: `[masked NAME]`. */
export type EnvSecret = readonly [name: string, value: string];

/**
 * The secret-named variables of an environment with values long enough to mask, longest first
 * (so overlapping values mask fully). `current()` re-reads the environment each time it is
 * called, so a variable set later is masked too, but pays only for reading the names: whether a
 * name is secret is decided once per name, the values of other variables are never read, and
 * the sorted list is rebuilt only when a secret value changed.
 */
export class EnvSecrets {
  private readonly secretName = new Map<string, boolean>();
  private list: EnvSecret[] = [];

  constructor(private readonly env: Record<string, string | undefined>) {}

  current(): readonly EnvSecret[] {
    const found: EnvSecret[] = [];
    for (const name of Object.keys(this.env)) {
      let secret = this.secretName.get(name);
      if (secret === undefined) {
        secret = isSecretName(name);
        this.secretName.set(name, secret);
      }
      if (!secret) continue;
      const value = this.env[name];
      if (typeof value === 'string' && value.length >= MIN_LITERAL_LENGTH) found.push([name, value]);
    }
    if (!sameSecrets(found, this.list)) this.list = found.sort((a, b) => b[1].length - a[1].length);
    return this.list;
  }
}

/** Same pairs, whatever their order (`list` is sorted, `found` is in environment order). */
function sameSecrets(found: readonly EnvSecret[], list: readonly EnvSecret[]): boolean {
  if (found.length !== list.length) return false;
  if (found.length === 0) return true;
  const known = new Map(list.map(([name, value]) => [name, value]));
  return found.every(([name, value]) => known.get(name) === value);
}
