import { z } from 'zod';
import { defineTool } from '../tools/define.js';
import type { EngineEvent, SteeringMessage, TurnEnvironment, TurnOptions } from './types.js';

/**
 * Shared set-up for tests that run real turns against the fake model server (see
 * providers/testing/fake-server.test-helper.ts): turn options with inert ports, event helpers,
 * and two small tools.
 */

/**
 * A turn described flat, as tests like to write it: the environment's fields, the turn's, and
 * `userText`/`userName`/`system`/`memory`/`signal`/`takeSteering` for the nested ones.
 */
export type TurnSetup = TurnEnvironment &
  Pick<TurnOptions, 'turnId' | 'conversation' | 'model'> & {
    userText: string;
    userName: string;
    system: string;
    memory?: TurnOptions['prompt']['memory'];
    signal: AbortSignal;
    takeSteering?: () => SteeringMessage[];
  };

/** Ports these tests never exercise: commands exit 0 silently, paths resolve to themselves, reads are always fresh. */
export const INERT_PORTS: Pick<TurnEnvironment, 'runner' | 'paths' | 'baselines'> = {
  runner: { run: async () => ({ exitCode: 0, output: '', timedOut: false }) },
  paths: { resolve: async (p) => p },
  baselines: { recordRead() {}, assertFresh: async () => {}, recordWrite() {} },
};

/** Options for one turn: session s1, turn t1, ana asking on an empty conversation; `over` wins. */
export function turnOptions(over: Partial<TurnSetup> & Pick<TurnSetup, 'model' | 'tools'>): TurnOptions {
  const { turnId, conversation, model, userText, userName, system, memory, signal, takeSteering, ...environment } = {
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
  return {
    environment,
    turnId,
    conversation,
    user: { text: userText, name: userName },
    prompt: { system, ...(memory ? { memory } : {}) },
    model,
    control: { signal, ...(takeSteering ? { takeSteering } : {}) },
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
  kind: 'other',
  execute: async ({ text }) => `echo: ${text}`,
});

/** A tool that never finishes until its call is aborted. */
export const hangTool = defineTool({
  name: 'hang',
  description: 'Waits until aborted.',
  schema: z.object({}),
  danger: 'safe',
  readOnly: false,
  kind: 'other',
  execute: (_a, ctx) => new Promise((_r, reject) => ctx.signal.addEventListener('abort', () => reject(new Error('aborted')))),
});
