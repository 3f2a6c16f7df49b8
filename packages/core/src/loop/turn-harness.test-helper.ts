import { afterEach, beforeEach } from 'vitest';
import { z } from 'zod';
import { startFakeModelServer, type FakeModelServer } from '@tandem/testkit';
import { createAnthropicClient } from '../providers/anthropic-messages.js';
import { createOpenAIChatClient } from '../providers/openai-chat.js';
import type { ModelClient } from '../providers/types.js';
import { defineTool } from '../tools/define.js';
import type { EngineEvent, TurnOptions } from './types.js';

/**
 * Shared set-up for tests that run real turns against the fake model server: the server's
 * lifecycle, SDK clients pointed at it, turn options with inert ports, and event helpers.
 */

/** A fresh fake model server for every test of the calling file; `fake.server` is the current one. */
export function fakeModelServerPerTest(): { readonly server: FakeModelServer } {
  let current: FakeModelServer | undefined;
  beforeEach(async () => {
    current = await startFakeModelServer();
  });
  afterEach(async () => {
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
export function openaiClient(server: FakeModelServer, model: string): ModelClient {
  return createOpenAIChatClient({ id: `openai/${model}`, model, baseURL: server.openaiBaseURL, apiKey: 'k' });
}

/** The Anthropic adapter for `anthropic/<model>` on the fake server. */
export function anthropicClient(server: FakeModelServer, model: string): ModelClient {
  return createAnthropicClient({ id: `anthropic/${model}`, model, baseURL: server.anthropicBaseURL, apiKey: 'k' });
}

/** Ports these tests never exercise: commands exit 0 silently, paths resolve to themselves, reads are always fresh. */
export const INERT_PORTS: Pick<TurnOptions, 'runner' | 'paths' | 'baselines'> = {
  runner: { run: async () => ({ exitCode: 0, output: '', timedOut: false }) },
  paths: { resolve: async (p) => p },
  baselines: { recordRead() {}, assertFresh: async () => {}, recordWrite() {} },
};

/** Options for one turn: session s1, turn t1, ana asking on an empty conversation; `over` wins. */
export function turnOptions(over: Partial<TurnOptions> & Pick<TurnOptions, 'model' | 'tools'>): TurnOptions {
  return {
    sessionId: 's1',
    turnId: 't1',
    conversation: [],
    userText: 'please do it',
    userName: 'ana',
    system: 'You are a test agent.',
    cwd: '/work',
    ...INERT_PORTS,
    signal: new AbortController().signal,
    ...over,
  };
}

/** Every event of a turn, in order; `onEvent` sees each as it comes. */
export async function collect(gen: AsyncIterable<EngineEvent>, onEvent?: (e: EngineEvent) => void): Promise<EngineEvent[]> {
  const events: EngineEvent[] = [];
  for await (const e of gen) {
    events.push(e);
    onEvent?.(e);
  }
  return events;
}

export const ofType = <T extends EngineEvent['type']>(events: EngineEvent[], type: T) =>
  events.filter((e): e is Extract<EngineEvent, { type: T }> => e.type === type);

/** A read-only tool that answers `echo: <text>`. */
export const echoTool = defineTool({
  name: 'echo',
  description: 'Echoes text.',
  schema: z.object({ text: z.string() }),
  danger: 'safe',
  readOnly: true,
  execute: async ({ text }) => `echo: ${text}`,
});

/** A tool that never finishes until its call is aborted. */
export const hangTool = defineTool({
  name: 'hang',
  description: 'Waits until aborted.',
  schema: z.object({}),
  danger: 'safe',
  readOnly: false,
  execute: (_a, ctx) => new Promise((_r, reject) => ctx.signal.addEventListener('abort', () => reject(new Error('aborted')))),
});
