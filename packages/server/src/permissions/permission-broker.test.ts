import { describe, expect, it } from 'vitest';
import { SessionEventSchema, type EventBody } from '@tandem/shared';
import { PermissionBroker, type PermissionAnswer, type PermissionQuestion } from './permission-broker.js';
import { expireDanglingRequests } from './expire-dangling.js';
import { FakeClock, settle } from '@tandem/testkit';

const question: PermissionQuestion = {
  callId: 'call-1',
  tool: 'run_command',
  args: { command: 'npm test' },
  danger: 'dangerous',
  scopes: ['npm test', 'npm test *', 'npm *'],
  preview: 'npm test',
};

function setup(timeoutMs?: number) {
  const clock = new FakeClock();
  const events: EventBody[] = [];
  let n = 0;
  const broker = new PermissionBroker({ emit: (e) => events.push(e), clock, newId: () => `req-${++n}`, ...(timeoutMs ? { timeoutMs } : {}) });
  return { clock, events, broker };
}

describe('PermissionBroker', () => {
  it('announces the request to every client with its expiry, scopes and preview', async () => {
    const { clock, events, broker } = setup();
    void broker.ask(question, new AbortController().signal);
    expect(events).toEqual([
      {
        type: 'permission_request',
        requestId: 'req-1',
        callId: 'call-1',
        tool: 'run_command',
        args: { command: 'npm test' },
        danger: 'dangerous',
        expiresAt: new Date(clock.now() + 60_000).toISOString(),
        scopes: question.scopes,
        preview: 'npm test',
      },
    ]);
  });

  it.each(['allow_once', 'allow_session', 'allow_forever', 'deny_once', 'deny_forever'] as const)(
    'resolves with %s and tells everyone who decided',
    async (decision) => {
      const { events, broker } = setup();
      const answer = broker.ask(question, new AbortController().signal);
      expect(broker.respond('req-1', decision, 'npm *', 'ana')).toEqual({ ok: true });
      const lasting = decision.endsWith('session') || decision.endsWith('forever');
      expect(await answer).toEqual({ requestId: 'req-1', decision, by: 'ana', reason: 'answered', ...(lasting ? { scope: 'npm *' } : {}) });
      expect(events[1]).toEqual({
        type: 'permission_resolved',
        requestId: 'req-1',
        decision,
        by: 'ana',
        reason: 'answered',
        ...(lasting ? { scope: 'npm *' } : {}),
      });
    },
  );

  it('emits events that match the wire schema', async () => {
    const { events, broker, clock } = setup();
    void broker.ask(question, new AbortController().signal);
    broker.respond('req-1', 'allow_forever', 'npm *', 'ana');
    void broker.ask(question, new AbortController().signal);
    await clock.advance(60_000);
    expect(events.map((e) => e.type)).toEqual(['permission_request', 'permission_resolved', 'permission_request', 'permission_resolved']);
    for (const [seq, body] of events.entries()) {
      expect(() => SessionEventSchema.parse({ sessionId: 's', seq: seq + 1, ts: new Date(0).toISOString(), ...body })).not.toThrow();
    }
  });

  it('takes the narrowest scope when a lasting answer names none', async () => {
    const { broker } = setup();
    const answer = broker.ask(question, new AbortController().signal);
    broker.respond('req-1', 'allow_forever', undefined, 'ana');
    expect((await answer).scope).toBe('npm test');
  });

  it('lets the first of two drivers win; the second gets conflict', async () => {
    const { events, broker } = setup();
    const answer = broker.ask(question, new AbortController().signal);
    const results = [broker.respond('req-1', 'deny_once', undefined, 'bo'), broker.respond('req-1', 'allow_forever', undefined, 'ana')];
    expect(results[0]).toEqual({ ok: true });
    expect(results[1]).toMatchObject({ ok: false, error: 'conflict', message: expect.stringContaining('deny_once by bo') });
    expect(await answer).toMatchObject({ decision: 'deny_once', by: 'bo' });
    expect(events.filter((e) => e.type === 'permission_resolved')).toHaveLength(1);
  });

  it('answers not_found for an id it never issued, and bad_request for a scope it did not offer', async () => {
    const { broker } = setup();
    void broker.ask(question, new AbortController().signal);
    expect(broker.respond('nope', 'allow_once', undefined, 'ana')).toMatchObject({ ok: false, error: 'not_found' });
    expect(broker.respond('req-1', 'allow_forever', 'rm *', 'ana')).toMatchObject({ ok: false, error: 'bad_request' });
    expect(broker.pending()).toHaveLength(1); // still open after a bad answer
  });

  it('keeps a request pending for a client that attaches later, who can then answer it', async () => {
    const { broker } = setup();
    const answer = broker.ask(question, new AbortController().signal);
    await settle();
    const seen = broker.pending(); // what a late client is shown
    expect(seen).toEqual([expect.objectContaining({ requestId: 'req-1', tool: 'run_command', preview: 'npm test' })]);
    expect(broker.respond(seen[0]!.requestId, 'allow_once', undefined, 'late-laptop')).toEqual({ ok: true });
    expect(await answer).toMatchObject({ decision: 'allow_once', by: 'late-laptop' });
    expect(broker.pending()).toEqual([]);
  });

  it('denies automatically when nobody answers in time', async () => {
    const { clock, events, broker } = setup();
    let answer: PermissionAnswer | undefined;
    void broker.ask(question, new AbortController().signal).then((a) => (answer = a));
    await clock.advance(59_999);
    expect(answer).toBeUndefined();
    await clock.advance(1);
    expect(answer).toEqual({ requestId: 'req-1', decision: 'deny_once', by: 'system', reason: 'timeout' });
    expect(events.at(-1)).toEqual({ type: 'permission_resolved', requestId: 'req-1', decision: 'deny_once', by: 'system', reason: 'timeout' });
    expect(broker.respond('req-1', 'allow_once', undefined, 'ana')).toMatchObject({ error: 'conflict' });
  });

  it('honours a configured timeout', async () => {
    const { clock, broker } = setup(5000);
    const answer = broker.ask(question, new AbortController().signal);
    await clock.advance(5000);
    expect((await answer).reason).toBe('timeout');
  });

  it('closes the request as expired when the turn is cancelled', async () => {
    const { events, broker } = setup();
    const ac = new AbortController();
    const answer = broker.ask(question, ac.signal);
    ac.abort();
    expect(await answer).toMatchObject({ decision: 'deny_once', reason: 'cancelled' });
    expect(events.at(-1)).toMatchObject({ type: 'permission_resolved', reason: 'expired', by: 'system' });
  });
});

describe('expireDanglingRequests', () => {
  it('expires requests the log never resolved, and only those', () => {
    const log = [
      { type: 'permission_request', requestId: 'a' },
      { type: 'permission_resolved', requestId: 'a' },
      { type: 'tool_call', callId: 'x' },
      { type: 'permission_request', requestId: 'b' },
    ];
    expect(expireDanglingRequests(log)).toEqual([{ type: 'permission_resolved', requestId: 'b', decision: 'deny_once', by: 'system', reason: 'expired' }]);
    expect(expireDanglingRequests([])).toEqual([]);
  });
});
