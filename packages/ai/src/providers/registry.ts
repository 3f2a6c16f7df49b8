import type { WireProtocol } from './types.js';

/**
 * The providers Tandem can reach: which wire protocol each speaks, where it lives by default,
 * and which environment variables carry its credentials and endpoint.
 */
export interface ProviderInfo {
  name: string;
  label: string;
  protocol: WireProtocol;
  defaultBaseURL: string;
  /** Variables that may hold API keys; each may be a comma-separated list. Empty: no key needed. */
  keyEnv: readonly string[];
  /** A variable that overrides the base URL. */
  baseURLEnv?: string;
  /** How a base URL variable maps to the API root (e.g. OLLAMA_HOST is a host; the API is `<host>/v1`). */
  baseURLFromEnv?: (value: string) => string;
  /** Runs on the user's machine: no key, and its context window can be asked of the server. */
  local?: 'ollama' | 'llamacpp';
  /**
   * Accepts `prompt_cache_key` in a request (OpenAI-format providers only). Off for providers that
   * reject fields they do not know; config.json `providers.NAME.promptCacheKey` overrides it.
   */
  promptCacheKey?: boolean;
}

function withScheme(host: string): string {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(host) ? host : `http://${host}`;
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

/** OLLAMA_HOST is `host:port` or a URL, without the `/v1` the OpenAI-compatible API lives under. */
export function ollamaBaseURL(host: string): string {
  const url = trimSlash(withScheme(host.trim()));
  return url.endsWith('/v1') ? url : `${url}/v1`;
}

/** LLAMACPP_BASE_URL may be given with or without `/v1`. */
export function llamacppBaseURL(value: string): string {
  const url = trimSlash(withScheme(value.trim()));
  return url.endsWith('/v1') ? url : `${url}/v1`;
}

const PROVIDER_LIST: readonly ProviderInfo[] = [
  {
    name: 'openai',
    label: 'OpenAI',
    protocol: 'openai-chat',
    defaultBaseURL: 'https://api.openai.com/v1',
    keyEnv: ['OPENAI_API_KEY'],
    baseURLEnv: 'OPENAI_BASE_URL',
    promptCacheKey: true,
  },
  {
    name: 'anthropic',
    label: 'Anthropic',
    protocol: 'anthropic-messages',
    defaultBaseURL: 'https://api.anthropic.com',
    keyEnv: ['ANTHROPIC_API_KEY'],
    baseURLEnv: 'ANTHROPIC_BASE_URL',
  },
  {
    name: 'gemini',
    label: 'Google Gemini',
    protocol: 'openai-chat',
    defaultBaseURL: 'https://generativelanguage.googleapis.com/v1beta/openai/',
    keyEnv: ['GEMINI_API_KEY'],
  },
  {
    name: 'groq',
    label: 'Groq',
    protocol: 'openai-chat',
    defaultBaseURL: 'https://api.groq.com/openai/v1',
    keyEnv: ['GROQ_API_KEY'],
  },
  {
    name: 'openrouter',
    label: 'OpenRouter',
    protocol: 'openai-chat',
    defaultBaseURL: 'https://openrouter.ai/api/v1',
    keyEnv: ['OPENROUTER_API_KEY'],
  },
  {
    name: 'xai',
    label: 'xAI',
    protocol: 'openai-chat',
    defaultBaseURL: 'https://api.x.ai/v1',
    keyEnv: ['XAI_API_KEY'],
  },
  {
    name: 'ollama',
    label: 'Ollama',
    protocol: 'openai-chat',
    defaultBaseURL: 'http://127.0.0.1:11434/v1',
    keyEnv: [],
    baseURLEnv: 'OLLAMA_HOST',
    baseURLFromEnv: ollamaBaseURL,
    local: 'ollama',
  },
  {
    name: 'llamacpp',
    label: 'llama.cpp server',
    protocol: 'openai-chat',
    defaultBaseURL: 'http://127.0.0.1:8080/v1',
    keyEnv: [],
    baseURLEnv: 'LLAMACPP_BASE_URL',
    baseURLFromEnv: llamacppBaseURL,
    local: 'llamacpp',
  },
];

export const PROVIDERS: ReadonlyMap<string, ProviderInfo> = new Map(PROVIDER_LIST.map((p) => [p.name, p]));

export function providerNames(): string[] {
  return [...PROVIDERS.keys()];
}

export function findProvider(name: string): ProviderInfo | undefined {
  return PROVIDERS.get(name);
}

/** Whether a session's requests to `provider` carry `prompt_cache_key`: config.json first, then the provider table (default off). */
export function sendsPromptCacheKey(provider: string, settings: { promptCacheKey?: boolean | undefined } | undefined): boolean {
  return settings?.promptCacheKey ?? findProvider(provider)?.promptCacheKey ?? false;
}
