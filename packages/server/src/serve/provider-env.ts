import { createHash } from 'node:crypto';
// The provider table alone (`@tandem/ai/registry`), not the engine: a terminal that only checks its
// shell against the running server must not load the engine (see local.ts).
import type { ProvidersConfig } from '@tandem/ai';
import { PROVIDERS } from '@tandem/ai/registry';

/** Variables besides the providers' own that change which model a server uses. */
const TANDEM_MODEL_VARIABLES = ['TANDEM_MODEL', 'TANDEM_MEMORY_MODELS'] as const;

/**
 * The environment variables a server reads for its models: every provider's key and base-URL
 * variables (OPENAI_API_KEY, OPENAI_BASE_URL, ANTHROPIC_API_KEY, …, OLLAMA_HOST,
 * LLAMACPP_BASE_URL), then TANDEM_MODEL and TANDEM_MEMORY_MODELS. Sorted, no duplicates.
 */
export function providerEnvNames(): string[] {
  const names = new Set<string>(TANDEM_MODEL_VARIABLES);
  for (const provider of PROVIDERS.values()) {
    for (const name of provider.keyEnv) names.add(name);
    if (provider.baseURLEnv) names.add(provider.baseURLEnv);
  }
  return [...names].sort();
}

/**
 * A digest of those variables as `env` has them: equal digests mean the same provider
 * environment. Only a hash leaves the process, never a value; an empty variable counts as unset.
 */
export function providerEnvDigest(env: NodeJS.ProcessEnv): string {
  const hash = createHash('sha256');
  for (const name of providerEnvNames()) {
    const value = env[name]?.trim();
    if (value) hash.update(`${name}=${value}\0`);
  }
  return hash.digest('hex').slice(0, 16);
}

/** The providers that have a key in `env` or in config.json `apiKeys` (names only, never a key). */
export function providersWithKey(env: NodeJS.ProcessEnv, config: ProvidersConfig = {}): string[] {
  const names: string[] = [];
  for (const provider of PROVIDERS.values()) {
    const inEnv = provider.keyEnv.some((name) => Boolean(env[name]?.trim()));
    const inConfig = (config.providers?.[provider.name]?.apiKeys ?? []).some((key) => key.trim().length > 0);
    if (inEnv || inConfig) names.push(provider.name);
  }
  return names;
}
