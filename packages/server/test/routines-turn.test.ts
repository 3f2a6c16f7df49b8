import { describe, expect, it } from 'vitest';
import type { SessionEvent } from '@tandem/shared';
import { fakeModelBed, startTestServer, type TestClient } from './server-harness.js';

async function until(condition: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (await condition()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`gave up waiting for ${what}`);
}

/**
 * Routines in real time: the model creates a 6-field every-2-seconds routine through a real
 * turn, it fires as turns by routine:NAME, keeps firing after a server restart on the same data
 * dir, and stops once cancelled over the wire. Waits on events, never on time.
 */
const bed = fakeModelBed();

const routineTurns = (client: TestClient, name: string) =>
  client.persisted().filter((e): e is Extract<SessionEvent, { type: 'user_message' }> => e.type === 'user_message' && e.by === `routine:${name}`);

describe('routines in a real server', () => {
  it('fire on schedule, survive a restart, and stop when cancelled', async () => {
    const first = await startTestServer({ env: bed.env() });
    bed.server = first;
    const alice = await first.connect('alice');
    const { session } = await alice.ok('session:create', {});
    await alice.ok('session:attach', { sessionId: session.id, role: 'driver' });
    alice.approveAll(session.id);
    bed.fake.enqueue(
      { toolCalls: [{ name: 'create_routine', args: { name: 'tick', schedule: '*/2 * * * * *', prompt: 'say tick', timezone: 'UTC' } }] },
      { text: 'Scheduled.' },
    );
    // Every routine turn answers at once.
    bed.fake.setHandler(() => ({ text: 'tick' }));
    await alice.ok('session:send', { sessionId: session.id, text: 'every two seconds, say tick' });
    const created = await alice.waitFor((e) => e.type === 'tool_result' && e.tool === 'create_routine');
    expect(created.type === 'tool_result' && created.output).toMatch(
      /^Created routine tick \(r-[0-9a-f]{8}\): Every 2 seconds \(UTC\)\.\nNext runs:\n {2}- \d{4}-\d\d-\d\dT\d\d:\d\d:\d[02468]\+00:00/,
    );
    await alice.waitFor(() => routineTurns(alice, 'tick').length >= 2);

    const { routines } = await alice.ok('routine:list', {});
    expect(routines).toHaveLength(1);
    expect(routines[0]).toMatchObject({
      name: 'tick',
      schedule: '*/2 * * * * *',
      prompt: 'say tick',
      sessionId: session.id,
      status: 'active',
      description: 'Every 2 seconds',
    });
    await first.stop();

    const second = await startTestServer({ env: bed.env(), dataDir: first.dataDir });
    bed.server = second;
    const bob = await second.connect('bob');
    const attached = await bob.ok('session:attach', { sessionId: session.id, role: 'driver' });
    bob.approveAll(session.id);
    const before = attached.events.filter((e) => e.type === 'user_message' && e.by === 'routine:tick').length;
    await bob.waitFor(() => routineTurns(bob, 'tick').length >= 1);
    expect(before).toBeGreaterThanOrEqual(2);

    const { routine } = await bob.ok('routine:cancel', { id: routines[0]!.id });
    expect(routine.status).toBe('cancelled');
    // A tick already under way finishes; then a control routine shows time passing: the
    // cancelled one must not fire again (no tick after the message that adds the control).
    await until(async () => (await bob.ok('session:list', {})).sessions.find((s) => s.id === session.id)?.status === 'idle', 'the session to be idle');
    bed.fake.enqueue(
      { toolCalls: [{ name: 'create_routine', args: { name: 'control', schedule: '*/2 * * * * *', prompt: 'control', timezone: 'UTC' } }] },
      { text: 'ok' },
    );
    await bob.ok('session:send', { sessionId: session.id, text: 'add a control routine' });
    await bob.waitFor(() => routineTurns(bob, 'control').length >= 2);
    const added = bob.persisted().find((e) => e.type === 'user_message' && e.text === 'add a control routine')!;
    expect(routineTurns(bob, 'tick').every((e) => e.seq < added.seq)).toBe(true);
  }, 300_000);
});
