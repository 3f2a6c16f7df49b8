import { afterEach, describe, expect, it } from 'vitest';
import type { EngineEvent, TurnOptions } from '@tandem/core';
import type { SessionEvent } from '@tandem/shared';
import { idleModelFactory } from './scripted-engine.js';
import { startTestServer, type TestClient, type TestServer } from './server-harness.js';

/**
 * The one owner of a session's turns (`SessionTurns`), through a real server and socket: what
 * it does whatever the engine does — one terminal event per turn, nothing after it, and the
 * next turn started from steering the engine never took, only after the last one ended.
 */
let server: TestServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

type Engine = (options: TurnOptions) => AsyncIterable<EngineEvent>;

async function startWith(runTurn: Engine): Promise<{ alice: TestClient; sessionId: string }> {
  server = await startTestServer({ engine: { runTurn }, modelFactory: idleModelFactory, guards: 'off' });
  const alice = await server.connect('alice');
  const { session } = await alice.ok('session:create', {});
  await alice.ok('session:attach', { sessionId: session.id, role: 'driver' });
  return { alice, sessionId: session.id };
}

const ofTurn = (events: SessionEvent[], turnId: string) => events.filter((e) => !e.ephemeral && 'turnId' in e && e.turnId === turnId);
const ends = (events: SessionEvent[]) => events.filter((e) => e.type === 'turn_done' || e.type === 'turn_cancelled' || e.type === 'turn_interrupted');

describe('the owner of a session turns', () => {
  it('ends a turn whose engine stops without a final event once, as an error, and the next message starts a new turn', async () => {
    const { alice, sessionId } = await startWith((options) =>
      (async function* () {
        yield { type: 'turn_started', turnId: options.turnId, model: options.model.id } satisfies EngineEvent;
        yield { type: 'assistant_text', turnId: options.turnId, iteration: 1, text: 'half an answer' } satisfies EngineEvent;
      })(),
    );
    const { turnId } = await alice.ok('session:send', { sessionId, text: 'go' });
    await alice.waitFor((e) => e.type === 'turn_done' && e.turnId === turnId);
    const events = ofTurn(alice.persisted(), turnId!);
    expect(ends(events)).toEqual([expect.objectContaining({ type: 'turn_done', outcome: 'error', iterations: 0 })]);
    expect(events.find((e) => e.type === 'agent_error')).toMatchObject({ code: 'internal', message: 'the engine ended the turn without a final event' });
    const next = await alice.ok('session:send', { sessionId, text: 'again' });
    expect(next.mode).toBe('turn');
    expect(next.turnId).not.toBe(turnId);
    await alice.waitFor((e) => e.type === 'turn_done' && e.turnId === next.turnId);
  });

  it('records nothing the engine says after the terminal event of a turn', async () => {
    const { alice, sessionId } = await startWith((options) =>
      (async function* () {
        const { turnId } = options;
        yield { type: 'turn_started', turnId, model: options.model.id } satisfies EngineEvent;
        yield { type: 'turn_done', turnId, iterations: 1, outcome: 'answered' } satisfies EngineEvent;
        yield { type: 'assistant_text', turnId, iteration: 2, text: 'too late' } satisfies EngineEvent;
        yield { type: 'turn_done', turnId, iterations: 2, outcome: 'answered' } satisfies EngineEvent;
      })(),
    );
    const { turnId } = await alice.ok('session:send', { sessionId, text: 'go' });
    await alice.waitFor((e) => e.type === 'turn_done' && e.turnId === turnId);
    // A later turn's events prove the first one's pump has run to its end.
    const next = await alice.ok('session:send', { sessionId, text: 'again' });
    await alice.waitFor((e) => e.type === 'turn_done' && e.turnId === next.turnId);
    const events = ofTurn(alice.persisted(), turnId!);
    expect(events.map((e) => e.type)).toEqual(['turn_started', 'turn_done']);
  });

  it('starts the next turn with steering the engine never took, after the turn it steered ended', async () => {
    const released: Array<() => void> = [];
    const seen: string[] = [];
    const { alice, sessionId } = await startWith((options) =>
      (async function* () {
        const { turnId } = options;
        seen.push(options.user.text);
        yield { type: 'turn_started', turnId, model: options.model.id } satisfies EngineEvent;
        // This engine never looks at its steering: a message sent meanwhile is left over.
        if (seen.length === 1) await new Promise<void>((resolve) => released.push(resolve));
        yield { type: 'turn_done', turnId, iterations: 1, outcome: 'answered' } satisfies EngineEvent;
      })(),
    );
    const first = await alice.ok('session:send', { sessionId, text: 'first' });
    await alice.waitFor((e) => e.type === 'turn_started' && e.turnId === first.turnId);
    expect(await alice.ok('session:send', { sessionId, text: 'late one' })).toEqual({ mode: 'steer', turnId: first.turnId });
    expect(await alice.ok('session:send', { sessionId, text: 'late two' })).toEqual({ mode: 'steer', turnId: first.turnId });
    released[0]!();
    const second = await alice.waitFor((e) => e.type === 'turn_started' && e.turnId !== first.turnId);
    await alice.waitFor((e) => e.type === 'turn_done' && e.turnId === (second.type === 'turn_started' ? second.turnId : ''));
    expect(seen).toEqual(['first', 'late one\n\nlate two']);
    // The steered turn ends before the turn its leftover steering starts; one user_message each.
    const order = alice
      .persisted()
      .filter((e) => e.type === 'user_message' || e.type === 'turn_started' || e.type === 'turn_done')
      .map((e) => (e.type === 'user_message' ? `user_message:${e.text}:${e.by}` : `${e.type}:${e.turnId === first.turnId ? 'first' : 'second'}`));
    expect(order).toEqual([
      'user_message:first:alice',
      'turn_started:first',
      'turn_done:first',
      'user_message:late one\n\nlate two:alice, alice',
      'turn_started:second',
      'turn_done:second',
    ]);
  });

  it('refuses maintenance while a turn runs, and runs it once the turn ended', async () => {
    const released: Array<() => void> = [];
    const { alice, sessionId } = await startWith((options) =>
      (async function* () {
        yield { type: 'turn_started', turnId: options.turnId, model: options.model.id } satisfies EngineEvent;
        await new Promise<void>((resolve) => released.push(resolve));
        yield { type: 'turn_done', turnId: options.turnId, iterations: 1, outcome: 'answered' } satisfies EngineEvent;
      })(),
    );
    const { turnId } = await alice.ok('session:send', { sessionId, text: 'go' });
    await alice.waitFor((e) => e.type === 'turn_started');
    const clear = await alice.request('session:clear', { sessionId });
    expect(clear).toMatchObject({ ok: false, error: { code: 'conflict' } });
    released[0]!();
    await alice.waitFor((e) => e.type === 'turn_done' && e.turnId === turnId);
    await alice.ok('session:clear', { sessionId });
    await alice.waitFor((e) => e.type === 'conversation_cleared');
  });
});
