import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { providerAccess } from './credentials.js';
import { ollamaBaseURL } from './registry.js';

describe('provider credentials', () => {
  it('reads a comma-separated key list from the environment, then config keys, without duplicates', () => {
    const access = providerAccess(
      { provider: 'openai' },
      { OPENAI_API_KEY: 'sk-one, sk-two,,sk-one' },
      { providers: { openai: { apiKeys: ['sk-three', 'sk-two'], headers: { 'x-team': 'a' } } } },
    );
    expect(access.keys.map((k) => k.reveal())).toEqual(['sk-one', 'sk-two', 'sk-three']);
    expect(access.keys.map((k) => k.source)).toEqual(['OPENAI_API_KEY[1]', 'OPENAI_API_KEY[2]', 'config.providers.openai.apiKeys[1]']);
    expect(access.headers).toEqual({ 'x-team': 'a' });
    expect(access.keyless).toBe(false);
    expect(access.baseURL).toBe('https://api.openai.com/v1');
  });

  it('never shows a key when printed, logged or serialised', () => {
    const secret = 'sk-live-SECRET-1234567890';
    const access = providerAccess({ provider: 'anthropic' }, { ANTHROPIC_API_KEY: secret });
    const key = access.keys[0]!;
    expect(key.reveal()).toBe(secret);
    for (const text of [JSON.stringify(access), String(key), `${key}`, inspect(access, { depth: 5 }), inspect(key)]) {
      expect(text).not.toContain(secret);
      expect(text).not.toContain('SECRET');
    }
    expect(key.id).toMatch(/^anthropic#[0-9a-f]{10}$/);
  });

  it('takes base URLs from the environment, mapping OLLAMA_HOST to its /v1 API', () => {
    expect(providerAccess({ provider: 'openai' }, { OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' }).baseURL).toBe('http://127.0.0.1:9/v1');
    expect(providerAccess({ provider: 'ollama' }, { OLLAMA_HOST: '10.1.1.1:11434' }).baseURL).toBe('http://10.1.1.1:11434/v1');
    expect(ollamaBaseURL('http://box:11434/')).toBe('http://box:11434/v1');
    expect(providerAccess({ provider: 'llamacpp' }, { LLAMACPP_BASE_URL: 'http://127.0.0.1:8081' }).baseURL).toBe('http://127.0.0.1:8081/v1');
    expect(providerAccess({ provider: 'gemini' }, {}).baseURL).toBe('https://generativelanguage.googleapis.com/v1beta/openai/');
    const local = providerAccess({ provider: 'ollama' }, {});
    expect(local).toMatchObject({ keyless: true, baseURL: 'http://127.0.0.1:11434/v1' });
  });

  it('lets config.json set a base URL and a per-key request rate', () => {
    const access = providerAccess(
      { provider: 'groq' },
      { GROQ_API_KEY: 'gsk' },
      { providers: { groq: { baseURL: 'http://proxy/v1', requestsPerMinute: 30 } } },
    );
    expect(access).toMatchObject({ baseURL: 'http://proxy/v1', requestsPerMinute: 30 });
  });
});
