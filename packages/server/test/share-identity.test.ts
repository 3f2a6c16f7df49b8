import { describe, expect, it } from 'vitest';
import type { SessionEvent } from '@tandem/shared';
import { fakeModelBed, startTestServer, tempDir, type TestClient } from './server-harness.js';

/**
 * A share's holder is the share's name everywhere (contract "Sharing one session"): presence,
 * `user_message.by`, `permission_resolved.by` and the audit record, whatever the handshake says.
 * Real turns: the openai SDK against the fake model server, real sockets, real ptys.
 */
const bed = fakeModelBed();
const calls = (...toolCalls: Array<{ name: string; args: Record<string, unknown> }>) => ({ toolCalls });

async function start(): Promise<{ host: TestClient; sessionId: string; connect: (name: string, token: string) => Promise<TestClient> }> {
  const workspace = (await tempDir('tandem-share-ws-')).path;
  const s = await startTestServer({ env: bed.env(), defaultCwd: workspace });
  bed.server = s;
  const host = await s.connect('ana');
  const { session } = await host.ok('session:create', {});
  await host.ok('session:attach', { sessionId: session.id, role: 'driver' });
  return { host, sessionId: session.id, connect: (name, token) => s.connect(name, token) };
}

describe("a share's name is who acts", () => {
  it('a driver share sends as its name, not the name its handshake claims; presence shows name and role', async () => {
    const { host, sessionId, connect } = await start();
    const { token, share } = await host.ok('share:create', { sessionId, name: 'bob', role: 'driver', expiresInSec: 7200 });
    expect(share).toMatchObject({ name: 'bob', role: 'driver', rights: ['view', 'send', 'approve'], connected: 0 });
    expect(token).toMatch(/^tsh_/);
    const bob = await connect('ana', token); // claims to be the host
    await bob.ok('session:attach', { sessionId, role: 'driver' });
    const presence = await host.waitFor((e) => e.type === 'presence' && e.clients.length === 2);
    if (presence.type !== 'presence') throw new Error('unreachable');
    expect(presence.clients.map(({ name, role, shareRole }) => ({ name, role, shareRole }))).toEqual([
      { name: 'ana', role: 'driver', shareRole: undefined },
      { name: 'bob', role: 'driver', shareRole: 'driver' },
    ]);

    bed.fake.enqueue({ text: 'hello bob' });
    await bob.ok('session:send', { sessionId, text: 'hi from bob' });
    const message = await host.waitFor((e) => e.type === 'user_message');
    expect(message).toMatchObject({ text: 'hi from bob', by: 'bob' });
    await host.waitFor((e) => e.type === 'turn_done');
    expect((await host.ok('share:list', { sessionId })).shares).toEqual([expect.objectContaining({ id: share.id, name: 'bob', connected: 1 })]);
  });

  it('an approver answers a permission request as its name, and the audit says so', async () => {
    const { host, sessionId, connect } = await start();
    const { token } = await host.ok('share:create', { sessionId, name: 'carla', role: 'approver' });
    const carla = await connect('mallory', token);
    await carla.ok('session:attach', { sessionId, role: 'viewer' });
    bed.fake.enqueue(calls({ name: 'run_command', args: { command: 'echo made > made.txt' } }), { text: 'done' });
    const sent = await carla.request('session:send', { sessionId, text: 'may I?' });
    expect(sent).toMatchObject({ ok: false, error: { code: 'forbidden', message: expect.stringMatching(/answer its permission requests/) } });

    await host.ok('session:send', { sessionId, text: 'write a file' });
    const asked = await carla.waitFor((e) => e.type === 'permission_request');
    if (asked.type !== 'permission_request') throw new Error('unreachable');
    await carla.ok('permission:respond', { sessionId, requestId: asked.requestId, decision: 'allow_once' });
    const resolved = await host.waitFor((e: SessionEvent) => e.type === 'permission_resolved');
    expect(resolved).toMatchObject({ decision: 'allow_once', by: 'carla' });
    await host.waitFor((e) => e.type === 'turn_done');
    const { records } = await host.ok('audit:query', { sessionId });
    expect(records.find((r) => r.tool === 'run_command')).toMatchObject({ decidedBy: 'carla', outcome: 'ok' });
    // Who created the share and who used it are in the audit too.
    expect(records.find((r) => r.tool === 'share:created')).toMatchObject({
      decidedBy: 'ana',
      args: expect.objectContaining({ name: 'carla', role: 'approver' }),
    });
    expect(records.find((r) => r.tool === 'share:connected')).toMatchObject({ decidedBy: 'carla' });
  });
});
