import { describe, expect, it } from 'vitest';
import { Commands, type CommandName, type ShareRole } from '@tandem/shared';
import { startTestServer, type TestClient, type TestServer } from './server-harness.js';
import { idleModelFactory, ScriptedLoop } from './scripted-engine.js';

/**
 * Every wire command × every share role, against a real server and real sockets (contract
 * "Sharing one session"). The expected table is written here, not derived from commands.ts, so a
 * command opened to shares by mistake fails this test; a command added later and missing below
 * fails it too, until someone decides what shares may do with it.
 */

type Right = 'view' | 'send' | 'approve';
const OPEN: Partial<Record<CommandName, Right>> = {
  'session:list': 'view',
  'session:attach': 'view',
  'session:history': 'view',
  'session:detach': 'view',
  'jobs:list': 'view',
  'client:whoami': 'view',
  'session:send': 'send',
  'session:cancel': 'send',
  'command:input': 'send',
  'job:stop': 'send',
  'commands:list': 'send',
  'permission:respond': 'approve',
};
const RIGHTS: Record<ShareRole, Right[]> = { viewer: ['view'], approver: ['view', 'approve'], driver: ['view', 'send', 'approve'] };

/** A valid payload for every command, about the shared session (`S`) where it names one. */
function samplePayload(name: CommandName, S: string): Record<string, unknown> {
  const samples: Record<CommandName, Record<string, unknown>> = {
    'session:list': {},
    'session:create': { title: 'another' },
    'session:attach': { sessionId: S, role: 'viewer' },
    'session:history': { sessionId: S, beforeSeq: 1, limit: 10 },
    'commands:list': { sessionId: S },
    'session:detach': { sessionId: S },
    'session:send': { sessionId: S, text: 'hello' },
    'session:cancel': { sessionId: S },
    'permission:respond': { sessionId: S, requestId: 'no-such-request', decision: 'allow_once' },
    'command:input': { sessionId: S, callId: 'no-such-call', data: 'y' },
    'session:new': { sessionId: S },
    'session:compact': { sessionId: S },
    'audit:query': { sessionId: S },
    'jobs:list': { sessionId: S },
    'job:stop': { sessionId: S, jobId: 'no-such-job' },
    'sandbox:grant': { sessionId: S, path: '/tmp' },
    'session:undo': { sessionId: S },
    'session:diff': { sessionId: S },
    'session:checkpoints': { sessionId: S },
    'permissions:list': {},
    'permissions:revoke': { id: 'no-such-rule' },
    'models:list': {},
    'session:configure': { sessionId: S, title: 'renamed' },
    'session:delete': { sessionId: S },
    'session:clear': { sessionId: S },
    'session:usage': { sessionId: S },
    'session:reload': { sessionId: S },
    'server:status': {},
    'routine:list': {},
    'routine:cancel': { id: 'no-such-routine' },
    'memory:show': { sessionId: S },
    'mcp:list': { sessionId: S },
    'skills:list': { sessionId: S },
    'packages:list': {},
    'agents:evolution': { name: 'nobody' },
    'share:create': { sessionId: S, name: 'eve', role: 'driver' },
    'share:list': {},
    'share:revoke': { id: 'sh_000000000000' },
    'client:whoami': {},
  };
  const sample = samples[name];
  if (!sample) throw new Error(`no sample payload for ${name}: add one, and decide in OPEN whether shares may send it`);
  return sample;
}

/** The order the table is walked in: attach first (driver commands need it), detach last. */
function ordered(): CommandName[] {
  const names = Object.keys(Commands) as CommandName[];
  const last: CommandName[] = ['session:detach', 'session:delete'];
  return ['session:attach', ...names.filter((n) => n !== 'session:attach' && !last.includes(n)), ...last];
}

async function serverWithSession(): Promise<{ s: TestServer; host: TestClient; sessionId: string; otherId: string }> {
  const loop = new ScriptedLoop(['ok']);
  // The table sends some 60 commands at once: a wider per-connection budget than a person needs.
  const s = await startTestServer({
    engine: { runTurn: loop.runTurn },
    modelFactory: idleModelFactory,
    guards: { connectionLimit: { ratePerSecond: 1000, burst: 1000 } },
  });
  const host = await s.connect('host');
  const { session } = await host.ok('session:create', { title: 'shared' });
  const { session: other } = await host.ok('session:create', { title: 'private' });
  return { s, host, sessionId: session.id, otherId: other.id };
}

describe('what each share role may send (every command × every role)', () => {
  for (const role of ['viewer', 'approver', 'driver'] as const) {
    it(`${role}: exactly the commands its rights open, only on its own session`, async () => {
      const { s, host, sessionId, otherId } = await serverWithSession();
      try {
        const { token } = await host.ok('share:create', { sessionId, name: `guest-${role}`, role });
        const guest = await s.connect('whoever', token);
        for (const name of ordered()) {
          const payload = samplePayload(name, sessionId);
          if (name === 'session:attach' && role === 'driver') payload.role = 'driver';
          const reply = await guest.request(name, payload);
          const right = OPEN[name];
          const allowed = right !== undefined && RIGHTS[role].includes(right);
          if (allowed) {
            // Open to this role: whatever the answer (ok, or not_found for a made-up id), never forbidden.
            expect(reply.ok || reply.error.code, `${role} ${name}: ${JSON.stringify(reply)}`).not.toBe('forbidden');
          } else {
            expect(reply.ok, `${role} ${name} should be refused`).toBe(false);
            if (reply.ok) continue;
            expect(reply.error.code, `${role} ${name}`).toBe('forbidden');
            // The refusal says what the share allows.
            expect(reply.error.message, `${role} ${name}`).toMatch(/allows: you can watch this session/);
          }
          // Any command naming another session is refused, even one the role may send.
          const elsewhere = samplePayload(name, otherId);
          if ('sessionId' in elsewhere) {
            const refused = await guest.request(name, elsewhere);
            expect(refused.ok, `${role} ${name} on another session`).toBe(false);
            if (!refused.ok) expect(refused.error.code, `${role} ${name} on another session`).toBe('forbidden');
          }
        }
        // The other session was not touched by any of it, and still exists.
        const { sessions } = await host.ok('session:list', {});
        expect(sessions.map((x) => x.id)).toContain(otherId);
      } finally {
        await s.stop();
      }
    });
  }

  it('lists only its session, attaches as driver only with send, never allows forever', async () => {
    const { s, host, sessionId, otherId } = await serverWithSession();
    try {
      const viewer = await s.connect('v', (await host.ok('share:create', { sessionId, name: 'vera', role: 'viewer' })).token);
      const approver = await s.connect('a', (await host.ok('share:create', { sessionId, name: 'carla', role: 'approver' })).token);
      const { sessions } = await viewer.ok('session:list', {});
      expect(sessions.map((x) => x.id)).toEqual([sessionId]);
      expect((await host.ok('session:list', {})).sessions.map((x) => x.id)).toContain(otherId);

      for (const guest of [viewer, approver]) {
        const reply = await guest.request('session:attach', { sessionId, role: 'driver' });
        expect(reply).toMatchObject({ ok: false, error: { code: 'forbidden', message: expect.stringMatching(/attaches as viewer/) } });
      }
      await approver.ok('session:attach', { sessionId, role: 'viewer' });
      const forever = await approver.request('permission:respond', { sessionId, requestId: 'x', decision: 'allow_forever' });
      expect(forever).toMatchObject({ ok: false, error: { code: 'forbidden', message: expect.stringMatching(/allow_forever\) is for the host/) } });

      const who = await approver.ok('client:whoami', {});
      expect(who).toEqual({
        kind: 'share',
        name: 'carla',
        share: { id: expect.stringMatching(/^sh_/), sessionId, role: 'approver', rights: ['view', 'approve'], expiresAt: expect.any(String) },
      });
      expect(await host.ok('client:whoami', {})).toEqual({ kind: 'control', name: 'host' });
    } finally {
      await s.stop();
    }
  });

  it('share:* needs the control token; bad input is refused with a sentence', async () => {
    const { s, host, sessionId } = await serverWithSession();
    try {
      const view = await s.connect('watcher', 'view-token-for-tests');
      const refused = await view.request('share:create', { sessionId, name: 'x', role: 'viewer' });
      expect(refused).toMatchObject({ ok: false, error: { code: 'forbidden' } });
      expect(await host.request('share:create', { sessionId: 'nope', name: 'x', role: 'viewer' })).toMatchObject({ ok: false, error: { code: 'not_found' } });
      expect(await host.request('share:create', { sessionId, name: 'x', role: 'admin' })).toMatchObject({
        ok: false,
        error: { code: 'bad_request', message: expect.stringMatching(/role/) },
      });
      expect(await host.request('share:create', { sessionId, name: '', role: 'viewer' })).toMatchObject({ ok: false, error: { code: 'bad_request' } });
      expect(await host.request('share:create', { sessionId, name: 'x', role: 'viewer', expiresInSec: 0 })).toMatchObject({
        ok: false,
        error: { code: 'bad_request' },
      });
      expect(await host.request('share:revoke', { id: 'sh_nothing' })).toMatchObject({
        ok: false,
        error: { code: 'not_found', message: expect.stringMatching(/tandem share ls/) },
      });
    } finally {
      await s.stop();
    }
  });
});
