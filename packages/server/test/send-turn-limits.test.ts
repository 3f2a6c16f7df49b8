import { describe, expect, it } from 'vitest';
import { fakeModelBed, startTestServer } from './server-harness.js';

/**
 * `session:send { maxIterations }` caps the turn the message starts (a headless run's
 * `--max-iterations`), and the ack names that turn (`turnId`); the session's own limit stays
 * for the turns after it.
 */
const bed = fakeModelBed();

describe('session:send with a per-turn iteration limit', () => {
  it('caps only the turn it starts, and the ack names that turn', async () => {
    const server = await startTestServer({ env: bed.env(), defaultModel: 'openai/fake-model', guards: 'off' });
    bed.server = server;
    const alice = await server.connect('alice');
    const { session } = await alice.ok('session:create', { title: 'limits' });
    await alice.ok('session:attach', { sessionId: session.id, role: 'driver' });

    bed.fake.enqueue({ toolCalls: [{ name: 'read_file', args: { path: 'missing.txt' } }] });
    const capped = await alice.ok('session:send', { sessionId: session.id, text: 'look', maxIterations: 1 });
    expect(capped.mode).toBe('turn');
    const started = await alice.waitFor((e) => e.type === 'turn_started');
    expect(started.type === 'turn_started' && started.turnId).toBe(capped.turnId);
    const done = await alice.waitFor((e) => e.type === 'turn_done' && e.turnId === capped.turnId);
    expect(done).toMatchObject({ outcome: 'max_iterations', iterations: 1 });
    expect(bed.fake.pending()).toBe(0);

    // The next turn has the session's own limit again: a tool call, then the answer.
    bed.fake.enqueue({ toolCalls: [{ name: 'read_file', args: { path: 'missing.txt' } }] }, { text: 'Not there.' });
    const next = await alice.ok('session:send', { sessionId: session.id, text: 'look again' });
    const answered = await alice.waitFor((e) => e.type === 'turn_done' && e.turnId === next.turnId);
    expect(answered).toMatchObject({ outcome: 'answered', iterations: 2 });
  });

  it('refuses a limit out of range as bad_request', async () => {
    const server = await startTestServer({ env: bed.env(), defaultModel: 'openai/fake-model', guards: 'off' });
    bed.server = server;
    const alice = await server.connect('alice');
    const { session } = await alice.ok('session:create', { title: 'limits' });
    await alice.ok('session:attach', { sessionId: session.id, role: 'driver' });
    const reply = await alice.request('session:send', { sessionId: session.id, text: 'look', maxIterations: 0 });
    expect(reply).toMatchObject({ ok: false, error: { code: 'bad_request' } });
  });
});
