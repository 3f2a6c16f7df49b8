import { createHash } from 'node:crypto';
import type { CatalogEntry } from './catalog-entry.js';
import type { ProvidersConfig } from './config.js';
import { findProvider } from './registry.js';

/**
 * An API key. Its value is only reachable through `reveal()`: printing, logging or serialising
 * the object shows the key's name and fingerprint, never the key.
 */
export class ApiKey {
  readonly #value: string;
  /** Stable, secret-free identity: `provider#fingerprint`. Cooldowns and rate buckets use it. */
  readonly id: string;
  /** Where the key came from, e.g. `OPENAI_API_KEY[2]` or `config.providers.openai.apiKeys[1]`. */
  readonly source: string;

  constructor(provider: string, value: string, source: string) {
    this.#value = value;
    this.source = source;
    this.id = `${provider}#${fingerprint(value)}`;
  }

  reveal(): string {
    return this.#value;
  }

  toString(): string {
    return `${this.source} (${this.id})`;
  }

  toJSON(): string {
    return this.toString();
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `ApiKey<${this.toString()}>`;
  }
}

/**
 * Fingerprints of the keys seen, by key: the keys are read again for every request (so a key
 * changed in config.json or the environment is used at once), and hashing each one each time
 * cost more than the rest of that. Bounded: a process sees a handful of keys.
 */
const fingerprints = new Map<string, string>();
const MAX_FINGERPRINTS = 256;

function fingerprint(value: string): string {
  let known = fingerprints.get(value);
  if (known === undefined) {
    known = createHash('sha256').update(value).digest('hex').slice(0, 10);
    if (fingerprints.size >= MAX_FINGERPRINTS) fingerprints.clear();
    fingerprints.set(value, known);
  }
  return known;
}

/** How to reach one provider: endpoint, keys in preference order, extra headers. */
export interface ProviderAccess {
  provider: string;
  baseURL: string;
  keys: ApiKey[];
  /** A local server (Ollama, llama.cpp) or a custom endpoint that takes no key. */
  keyless: boolean;
  headers: Record<string, string>;
  requestsPerMinute?: number;
}

/** The provider needs a key and has none (set neither in the environment nor in config.json). */
export function missingKey(access: ProviderAccess): boolean {
  return !access.keyless && access.keys.length === 0;
}

function splitKeys(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((k) => k.trim())
    .filter((k) => k.length > 0);
}

/**
 * Collects a provider's keys (each key variable may hold a comma-separated list, then
 * config.json `apiKeys`), base URL and headers. Duplicates are dropped, order kept.
 */
export function providerAccess(entry: Pick<CatalogEntry, 'provider' | 'baseURL'>, env: NodeJS.ProcessEnv, config: ProvidersConfig = {}): ProviderAccess {
  const info = findProvider(entry.provider);
  const settings = config.providers?.[entry.provider] ?? {};
  const keys: ApiKey[] = [];
  const seen = new Set<string>();
  const add = (value: string, source: string) => {
    if (seen.has(value)) return;
    seen.add(value);
    keys.push(new ApiKey(entry.provider, value, source));
  };
  // A provider of one's own names its key's variable in config.json (`apiKeyEnv`).
  const keyEnv = info?.keyEnv ?? (settings.apiKeyEnv ? [settings.apiKeyEnv] : []);
  for (const name of keyEnv) {
    const list = splitKeys(env[name]);
    list.forEach((k, i) => add(k, list.length > 1 ? `${name}[${i + 1}]` : name));
  }
  (settings.apiKeys ?? []).forEach((k, i) => add(k.trim(), `config.providers.${entry.provider}.apiKeys[${i + 1}]`));

  const envURL = info?.baseURLEnv ? env[info.baseURLEnv]?.trim() : undefined;
  const fromEnv = envURL ? (info?.baseURLFromEnv ? info.baseURLFromEnv(envURL) : envURL) : undefined;
  const baseURL = entry.baseURL ?? fromEnv ?? settings.baseURL ?? info?.defaultBaseURL ?? '';
  return {
    provider: entry.provider,
    baseURL,
    keys: keys.filter((k) => k.reveal().length > 0),
    // One's own provider without apiKeyEnv or apiKeys takes no key (a local server); with apiKeyEnv it needs one.
    keyless: info ? info.keyEnv.length === 0 : keyEnv.length === 0 && (settings.apiKeys ?? []).length === 0,
    headers: { ...(settings.headers ?? {}) },
    ...(settings.requestsPerMinute !== undefined ? { requestsPerMinute: settings.requestsPerMinute } : {}),
  };
}

/** Where to put a key so a provider becomes usable; for messages that tell the user what to do. */
export function keyHint(provider: string, config: ProvidersConfig = {}): string {
  const own = config.providers?.[provider]?.apiKeyEnv;
  const env = findProvider(provider)?.keyEnv ?? (own ? [own] : []);
  const where = env.length > 0 ? `set ${env.join(' or ')} or ` : '';
  return `${where}add apiKeys under providers.${provider} in config.json`;
}

/**
 * Removes key values from an error a provider or SDK produced (some providers echo the key in
 * their error text), in place: messages, stacks and string fields of parsed error bodies, along
 * the `cause` chain (and a ProviderError's `details.cause`). Returns the same error.
 */
export function scrubKeys<T>(err: T, keys: readonly ApiKey[]): T {
  const secrets = keys.map((k) => ({ value: k.reveal(), label: `[${k.source}]` })).filter((s) => s.value.length >= 6);
  if (secrets.length === 0) return err;
  const clean = (text: string) => secrets.reduce((t, s) => t.split(s.value).join(s.label), text);
  const seen = new Set<object>();
  const visit = (value: unknown, depth: number): void => {
    if (!value || typeof value !== 'object' || seen.has(value) || depth > 6) return;
    seen.add(value);
    const record = value as Record<string, unknown>;
    if (value instanceof Error) {
      value.message = clean(value.message);
      if (value.stack) value.stack = clean(value.stack);
      visit(value.cause, depth + 1);
    }
    for (const [name, field] of Object.entries(record)) {
      if (typeof field === 'string') {
        if (secrets.some((s) => field.includes(s.value))) {
          try {
            record[name] = clean(field);
          } catch {
            // a frozen or read-only field: leave it; the error message itself is ours
          }
        }
      } else {
        visit(field, depth + 1);
      }
    }
  };
  visit(err, 0);
  return err;
}
