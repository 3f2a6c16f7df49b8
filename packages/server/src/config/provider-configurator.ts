import { readFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { findProvider, providerNames, type ProvidersConfig } from '@tandem/ai';
import { writeFileAtomic } from '@tandem/core';
import type { ProviderChange, ProviderConfigurator } from '@tandem/assistant-tools';
import { SecretStore } from '../secrets/secret-store.js';

/** Where configure_provider keeps a provider's key in the secret store. */
export const providerKeyName = (provider: string) => `provider/${provider}/apiKey`;

/**
 * configure_provider's host side: the key goes to the encrypted secret store (never to
 * config.json, an event, a log or the audit), the base URL and default model to config.json,
 * written whole with an atomic replace; other fields of config.json are kept as they are.
 * New model clients read both, so the next session that uses the provider works without a restart.
 */
export function providerConfigurator(dataDir: string): ProviderConfigurator {
  let queue: Promise<unknown> = Promise.resolve();
  return {
    configure(change: ProviderChange) {
      const run = queue.then(() => apply(dataDir, change));
      queue = run.catch(() => undefined);
      return run;
    },
  };
}

async function apply(dataDir: string, change: ProviderChange): Promise<string> {
  const provider = change.provider.trim().toLowerCase();
  if (!findProvider(provider)) throw new Error(`unknown provider "${change.provider}"; known providers: ${providerNames().join(', ')}`);
  if (change.model !== undefined && !/^[a-z0-9-]+\/\S+$/.test(change.model))
    throw new Error(`model must be provider/model (e.g. ${provider}/…), got "${change.model}"`);
  if (change.model !== undefined && !findProvider(change.model.split('/')[0]!)) throw new Error(`model "${change.model}" names an unknown provider`);
  const path = join(dataDir, 'config.json');
  let config: Record<string, unknown> = {};
  try {
    config = JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT')
      throw new Error(`${path} could not be read as JSON (${(err as Error).message}); fix it first, nothing was changed`);
  }
  const said: string[] = [];
  if (change.baseURL !== undefined || change.model !== undefined) {
    if (change.baseURL !== undefined) {
      const providers = (config.providers ?? {}) as Record<string, Record<string, unknown>>;
      providers[provider] = { ...(providers[provider] ?? {}), baseURL: change.baseURL };
      config.providers = providers;
      said.push(`base URL ${change.baseURL}`);
    }
    if (change.model !== undefined) {
      config.defaultModel = change.model;
      said.push(`default model for new sessions ${change.model}`);
    }
    await writeFileAtomic(path, `${JSON.stringify(config, null, 2)}\n`);
  }
  if (change.apiKey !== undefined) {
    SecretStore.open(dataDir).set(providerKeyName(provider), change.apiKey);
    said.unshift('key stored (encrypted; it will not be shown again)');
  }
  return `Configured ${provider}: ${said.join('; ')}. Sessions created from now on use it; no restart needed.`;
}

/** The providers config with keys set from the chat added after the configured ones. */
export function withStoredKeys(config: ProvidersConfig, dataDir: string): ProvidersConfig {
  let store: SecretStore;
  try {
    store = SecretStore.open(dataDir);
  } catch {
    return config;
  }
  const providers = { ...(config.providers ?? {}) };
  for (const name of store.names()) {
    const match = /^provider\/([^/]+)\/apiKey$/.exec(name);
    const key = match ? store.get(name) : undefined;
    if (!match || !key) continue;
    const current = providers[match[1]!] ?? {};
    providers[match[1]!] = { ...current, apiKeys: [...(current.apiKeys ?? []).filter((k) => k !== key), key] };
  }
  return { ...config, providers };
}

/** config.json `defaultModel` (set by configure_provider), if any. */
export function configuredDefaultModel(dataDir: string): string | undefined {
  try {
    const value = (JSON.parse(readFileSync(join(dataDir, 'config.json'), 'utf8')) as { defaultModel?: unknown }).defaultModel;
    return typeof value === 'string' && value.includes('/') ? value : undefined;
  } catch {
    return undefined;
  }
}
