import type { FakeModelServer } from '@tandem/testkit';
import type { EventBody as EngineEvent } from '@tandem/shared';
import type { CatalogEntry } from '../catalog-entry.js';
import type { ProvidersConfig } from '../config.js';
import type { ModelClient, ModelRequest, ModelStreamEvent } from '../types.js';

export const OPENAI_KEY = 'sk-test-OPENAI-0123456789abcdef';
export const OPENAI_KEY_2 = 'sk-test-OPENAI-second-fedcba9876';
export const ANTHROPIC_KEY = 'sk-ant-test-ANTHROPIC-0123456789';

/** A catalog entry for tests: reachable on the fake server, with a small window and an optional fallback. */
export function testModel(id: string, extra: Partial<CatalogEntry> = {}): CatalogEntry {
  const provider = id.slice(0, id.indexOf('/'));
  return {
    id,
    label: id,
    provider,
    protocol: provider === 'anthropic' ? 'anthropic-messages' : 'openai-chat',
    contextWindow: 100_000,
    maxOutput: 4_000,
    tools: true,
    tier: 'balanced',
    description: 'test model',
    ...extra,
  };
}

export function fakeEnv(server: FakeModelServer, openaiKeys = OPENAI_KEY): NodeJS.ProcessEnv {
  return {
    OPENAI_API_KEY: openaiKeys,
    OPENAI_BASE_URL: server.openaiBaseURL,
    ANTHROPIC_API_KEY: ANTHROPIC_KEY,
    ANTHROPIC_BASE_URL: server.anthropicBaseURL,
  };
}

export function configWith(models: CatalogEntry[], extra: ProvidersConfig = {}): ProvidersConfig {
  return { ...extra, models };
}

export const HELLO: ModelRequest = {
  system: 'You are a test.',
  messages: [{ role: 'user', text: 'hello' }],
  tools: [],
};

/** Streams a request to the end, returning what came out (or the error it ended with). */
export async function drain(
  client: ModelClient,
  request: ModelRequest = HELLO,
  signal: AbortSignal = new AbortController().signal,
): Promise<{ events: ModelStreamEvent[]; text: string; error?: unknown }> {
  const events: ModelStreamEvent[] = [];
  try {
    for await (const e of client.stream(request, signal)) events.push(e);
  } catch (error) {
    return { events, text: textOf(events), error };
  }
  return { events, text: textOf(events) };
}

function textOf(events: ModelStreamEvent[]): string {
  return events.map((e) => (e.type === 'text_delta' ? e.delta : '')).join('');
}

export function recorder(): { events: EngineEvent[]; onEvent: (e: EngineEvent) => void } {
  const events: EngineEvent[] = [];
  return { events, onEvent: (e) => events.push(e) };
}

export function bearer(req: { headers: Record<string, string | string[] | undefined> }): string | undefined {
  const auth = req.headers['authorization'];
  return typeof auth === 'string' ? auth.replace(/^Bearer /, '') : undefined;
}
