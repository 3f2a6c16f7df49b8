import { describe, expect, it } from 'vitest';
import { catalogFor, listModels } from './catalog.js';
import { parseProvidersConfig, type ProvidersConfig } from './config.js';
import { missingKey, providerAccess } from './credentials.js';
import { resolveMemoryChain } from './resolve.js';

function config(input: unknown): ProvidersConfig {
  const parsed = parseProvidersConfig(input);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.config;
}

const MINE = {
  providers: {
    mine: {
      api: 'openai',
      baseURL: 'http://127.0.0.1:1234/v1',
      apiKeyEnv: 'MINE_KEY',
      models: [{ id: 'coder', contextWindow: 32_000, price: { input: 1, output: 2 } }],
    },
    gate: { api: 'anthropic', baseURL: 'https://gateway.example.com', models: [{ id: 'gate/big', maxOutput: 4096 }] },
    openai: { models: [{ id: 'gpt-next', contextWindow: 2_000_000 }] },
  },
};

describe('providers of one’s own', () => {
  it('their models join the catalog with their wire format, limits and price', () => {
    const catalog = catalogFor(config(MINE));
    expect(catalog.get('mine/coder')).toMatchObject({
      provider: 'mine',
      protocol: 'openai-chat',
      contextWindow: 32_000,
      tier: 'custom',
      price: { input: 1, output: 2 },
    });
    expect(catalog.get('gate/big')).toMatchObject({ protocol: 'anthropic-messages', maxOutput: 4096 });
    expect(catalog.get('openai/gpt-next')).toMatchObject({ protocol: 'openai-chat', contextWindow: 2_000_000 });
    // Another model of the provider: default limits, its provider's format.
    expect(catalog.resolve('gate/other')).toMatchObject({ known: false, entry: { protocol: 'anthropic-messages' } });
    expect(listModels(config(MINE)).map((m) => m.id)).toEqual(expect.arrayContaining(['mine/coder', 'gate/big', 'openai/gpt-next']));
  });

  it('take the key from apiKeyEnv, and need one only when they name one', () => {
    const parsed = config(MINE);
    const entry = catalogFor(parsed).resolve('mine/coder').entry;
    const access = providerAccess(entry, { MINE_KEY: 'k1,k2' }, parsed);
    expect(access.keys.map((key) => key.source)).toEqual(['MINE_KEY[1]', 'MINE_KEY[2]']);
    expect(missingKey(providerAccess(entry, {}, parsed))).toBe(true);
    expect(missingKey(providerAccess(catalogFor(parsed).resolve('gate/big').entry, {}, parsed))).toBe(false);
  });

  it('serve the memory chain', () => {
    const { chain, skipped } = resolveMemoryChain({ env: {}, config: { ...config(MINE), memoryModels: ['mine/coder', 'nobody/x'] } });
    expect(chain.map((c) => c.id)).toEqual(['mine/coder']);
    expect(skipped[0]).toContain('unknown provider "nobody"');
  });

  it('say what is wrong with one in a sentence', () => {
    const message = (input: unknown) => {
      const parsed = parseProvidersConfig(input);
      return parsed.ok ? '' : parsed.message;
    };
    expect(message({ providers: { lmstudio: { api: 'openai' } } })).toBe(
      'config.json: providers.lmstudio.baseURL: lmstudio is not a built-in provider, so it needs baseURL (its endpoint) and api ("openai" or "anthropic"); fix or remove that field',
    );
    expect(message({ providers: { 'My Gateway': { api: 'openai', baseURL: 'http://x' } } })).toContain('lowercase letters, digits and -');
    expect(message({ providers: { openai: { api: 'anthropic' } } })).toContain('openai is built in and speaks its own format');
    expect(message({ providers: { mine: { api: 'grpc', baseURL: 'http://x' } } })).toContain('providers.mine.api');
  });
});
