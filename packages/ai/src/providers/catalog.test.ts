import { describe, expect, it } from 'vitest';
import { ModelInfoSchema } from '@tandem/shared';
import { BUILTIN_CATALOG, DEFAULT_MEMORY_MODELS } from './catalog-data.js';
import { CatalogEntrySchema, DEFAULT_MODEL_LIMITS } from './catalog-entry.js';
import { Catalog, catalogFor, listModels } from './catalog.js';
import { parseProvidersConfig, type ProvidersConfig } from './config.js';
import { ModelSpecError } from './model-spec.js';
import { findProvider, providerNames } from './registry.js';
import { memoryModelChain, modelWarnings } from './resolve.js';

describe('model catalog', () => {
  it('has valid entries whose provider and protocol match the provider table', () => {
    const ids = new Set<string>();
    for (const entry of BUILTIN_CATALOG) {
      expect(CatalogEntrySchema.safeParse(entry).success, entry.id).toBe(true);
      expect(ids.has(entry.id), `duplicate ${entry.id}`).toBe(false);
      ids.add(entry.id);
      expect(entry.id.startsWith(`${entry.provider}/`)).toBe(true);
      expect(findProvider(entry.provider)?.protocol).toBe(entry.protocol);
      expect(entry.maxOutput).toBeLessThanOrEqual(entry.contextWindow);
    }
    for (const p of ['openai', 'anthropic', 'gemini', 'groq', 'openrouter', 'xai', 'ollama', 'llamacpp']) {
      expect(
        [...ids].some((id) => id.startsWith(`${p}/`)),
        p,
      ).toBe(true);
    }
  });

  it('only links fallbacks and memory models to models it knows', () => {
    for (const entry of BUILTIN_CATALOG) {
      if (entry.fallback)
        expect(
          BUILTIN_CATALOG.some((e) => e.id === entry.fallback),
          `${entry.id} -> ${entry.fallback}`,
        ).toBe(true);
    }
    for (const id of DEFAULT_MEMORY_MODELS) expect(BUILTIN_CATALOG.some((e) => e.id === id)).toBe(true);
  });

  it('lists visible models only, in the shared ModelInfo shape', () => {
    const models = listModels();
    expect(models.length).toBeGreaterThan(10);
    for (const m of models) expect(ModelInfoSchema.strict().safeParse(m).success).toBe(true);
    const ids = models.map((m) => m.id);
    expect(ids).toContain('openai/gpt-4.1-mini');
    expect(ids).toContain('anthropic/claude-sonnet-4-5');
    expect(ids).not.toContain('openai/gpt-4.1-nano');
    expect(ids).not.toContain('gemini/gemini-2.5-flash-lite');
  });

  it('lets config.json add models and override built-in ones', () => {
    const parsed = parseProvidersConfig({
      models: [
        {
          id: 'openai/gpt-4.1-mini',
          label: 'Mini (ours)',
          provider: 'openai',
          protocol: 'openai-chat',
          contextWindow: 50_000,
          maxOutput: 4_000,
          tools: true,
          tier: 'balanced',
          description: 'overridden',
          hidden: true,
        },
        {
          id: 'ollama/my-coder',
          label: 'My coder',
          provider: 'ollama',
          protocol: 'openai-chat',
          contextWindow: 16_384,
          maxOutput: 4_096,
          tools: true,
          tier: 'local',
          description: 'mine',
        },
      ],
    });
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    const ids = listModels(parsed.config).map((m) => m.id);
    expect(ids).not.toContain('openai/gpt-4.1-mini');
    expect(ids).toContain('ollama/my-coder');
    expect(new Catalog(parsed.config).resolve('openai/gpt-4.1-mini').entry.contextWindow).toBe(50_000);
  });

  it('reports a bad config.json field as one readable message instead of throwing', () => {
    const parsed = parseProvidersConfig({ providers: { openai: { apiKeys: 'sk-not-a-list' } } });
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.message).toMatch(/^config\.json: providers\.openai\.apiKeys: /);
    expect(parseProvidersConfig(null).ok).toBe(true);
    const mismatch = parseProvidersConfig({
      models: [
        {
          id: 'openai/x',
          label: 'x',
          provider: 'anthropic',
          protocol: 'anthropic-messages',
          contextWindow: 1000,
          maxOutput: 100,
          tools: true,
          tier: 'fast',
          description: '',
        },
      ],
    });
    expect(mismatch.ok).toBe(false);
    if (!mismatch.ok) expect(mismatch.message).toMatch(/^config\.json: models\.0\.id: the id must start with the provider/);
  });

  it('accepts an unknown model of a known provider with default limits and a warning', () => {
    const { entry, known } = new Catalog().resolve('openai/gpt-9-preview');
    expect(known).toBe(false);
    expect(entry).toMatchObject({ provider: 'openai', protocol: 'openai-chat', contextWindow: 128_000, tools: true });
    const warnings = modelWarnings('openai/gpt-9-preview');
    expect(warnings).toEqual([
      { type: 'model_warning', model: 'openai/gpt-9-preview', message: expect.stringContaining('unknown model openai/gpt-9-preview') },
    ]);
    expect(warnings[0]).toMatchObject({ message: expect.stringContaining('using default limits: 128k context') });
    expect(new Catalog().resolve('anthropic/claude-next').entry.protocol).toBe('anthropic-messages');
    expect(modelWarnings('ollama/qwen3:8b')[0]).toMatchObject({
      message: expect.stringMatching(/128k context, 8k output until the local server reports its own window$/),
    });
  });

  it('keeps the provider prefix and the rest of the id apart (model names may contain /)', () => {
    const { entry, known } = new Catalog().resolve('groq/openai/gpt-oss-120b');
    expect(known).toBe(true);
    expect(entry.provider).toBe('groq');
  });

  it('refuses an unknown provider with the list of known ones, and a malformed id', () => {
    expect(() => new Catalog().resolve('mistral/large')).toThrow(ModelSpecError);
    expect(() => new Catalog().resolve('mistral/large')).toThrow(`known providers: ${providerNames().join(', ')}`);
    expect(() => new Catalog().resolve('gpt-4.1')).toThrow(/use provider\/model/);
    expect(() => new Catalog().resolve('openai/')).toThrow(ModelSpecError);
  });

  it('knows a custom provider once config.json gives it a base URL', () => {
    const config = { providers: { lab: { baseURL: 'http://10.0.0.5:8000/v1' } } };
    expect(new Catalog(config).resolve('lab/qwen3').entry).toMatchObject({ provider: 'lab', protocol: 'openai-chat' });
  });

  it('warns up front about a model that cannot call tools, and about a missing key', () => {
    expect(modelWarnings('ollama/gemma3').map((w) => (w as { message: string }).message)).toEqual([expect.stringContaining('cannot call tools')]);
    expect(modelWarnings('openai/gpt-4.1', undefined, {})).toEqual([
      { type: 'model_warning', model: 'openai/gpt-4.1', message: expect.stringContaining('set OPENAI_API_KEY') },
    ]);
    expect(modelWarnings('openai/gpt-4.1', undefined, { OPENAI_API_KEY: 'sk-x' })).toEqual([]);
  });

  it('takes the memory chain from TANDEM_MEMORY_MODELS, then config, then the catalog', () => {
    expect(memoryModelChain({ TANDEM_MEMORY_MODELS: ' groq/llama-3.1-8b-instant , openai/gpt-4.1-nano' })).toEqual([
      'groq/llama-3.1-8b-instant',
      'openai/gpt-4.1-nano',
    ]);
    expect(memoryModelChain({}, { memoryModels: ['anthropic/claude-haiku-4-5'] })).toEqual(['anthropic/claude-haiku-4-5']);
    expect(memoryModelChain({})).toEqual([...DEFAULT_MEMORY_MODELS]);
  });
});

describe('memory chain clients', () => {
  it('resolves each memory model pinned to itself, skipping ids it cannot use', async () => {
    const { resolveMemoryChain } = await import('./resolve.js');
    const { chain, skipped } = resolveMemoryChain({ env: { TANDEM_MEMORY_MODELS: 'openai/gpt-4.1-nano,nope/x,anthropic/claude-haiku-4-5' } });
    expect(chain.map((c) => c.id)).toEqual(['openai/gpt-4.1-nano', 'anthropic/claude-haiku-4-5']);
    expect(chain.map((c) => c.client.id)).toEqual(['openai/gpt-4.1-nano', 'anthropic/claude-haiku-4-5']);
    expect(skipped).toEqual([expect.stringMatching(/^nope\/x: unknown provider "nope"/)]);
  });
});

describe('catalogFor', () => {
  it('makes one catalog per config object, so a changed config (a new object) is seen at once', () => {
    const first: ProvidersConfig = {
      models: [
        { ...DEFAULT_MODEL_LIMITS, id: 'custom/m', label: 'm', provider: 'custom', protocol: 'openai-chat', tools: true, tier: 'balanced', description: 'one' },
      ],
    };
    expect(catalogFor(first)).toBe(catalogFor(first));
    expect(catalogFor(first).resolve('custom/m').entry.description).toBe('one');
    const changed: ProvidersConfig = { models: [{ ...first.models![0]!, description: 'two' }] };
    expect(catalogFor(changed).resolve('custom/m').entry.description).toBe('two');
    expect(catalogFor(first).resolve('custom/m').entry.description).toBe('one');
  });

  it('answers a spec asked again with the same resolution, and still refuses an unknown provider every time', () => {
    const catalog = catalogFor();
    expect(catalog.resolve('openai/not-in-catalog')).toBe(catalog.resolve('openai/not-in-catalog'));
    expect(() => catalog.resolve('nope/model')).toThrow(/unknown provider "nope"/);
    expect(() => catalog.resolve('nope/model')).toThrow(/unknown provider "nope"/);
  });
});
