import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { startFakeModelServer, type FakeModelServer } from '@tandem/testkit';
import { createAnthropicClient } from '../anthropic-messages.js';
import { createOpenAIChatClient } from '../openai-chat.js';
import type { ModelClient } from '../types.js';

/** A fresh fake model server for every test of the calling file; `fake.server` is the current one. */
export function fakeModelServerPerTest(): { readonly server: FakeModelServer } {
  return fakeModelServerAround(beforeEach, afterEach);
}

/** One fake model server for all tests of the calling file (requests and scripts carry over). */
export function fakeModelServerPerFile(): { readonly server: FakeModelServer } {
  return fakeModelServerAround(beforeAll, afterAll);
}

function fakeModelServerAround(before: typeof beforeAll, after: typeof afterAll): { readonly server: FakeModelServer } {
  let current: FakeModelServer | undefined;
  before(async () => {
    current = await startFakeModelServer();
  });
  after(async () => {
    await current?.close();
    current = undefined;
  });
  return {
    get server(): FakeModelServer {
      if (!current) throw new Error('the fake model server only runs inside a test');
      return current;
    },
  };
}

/** The OpenAI-compatible adapter for `openai/<model>` on the fake server. */
export function openaiClient(server: FakeModelServer, model: string, apiKey = 'k'): ModelClient {
  return createOpenAIChatClient({ id: `openai/${model}`, model, baseURL: server.openaiBaseURL, apiKey });
}

/** The Anthropic adapter for `anthropic/<model>` on the fake server. */
export function anthropicClient(server: FakeModelServer, model: string, apiKey = 'k'): ModelClient {
  return createAnthropicClient({ id: `anthropic/${model}`, model, baseURL: server.anthropicBaseURL, apiKey });
}
