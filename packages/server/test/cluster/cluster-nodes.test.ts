import { afterAll, describe, expect, it } from 'vitest';
import type { SessionEvent } from '@tandem/shared';
import { fakeModelBed, TOKENS, type TestServer } from '../server-harness.js';
import { AttachedView, clusterPrefix, presenceNames, startNode, until } from './cluster-harness.js';
import { startRedis } from './redis-process.js';

/**
 * Two real server nodes on one real redis-server, real socket.io clients on each, the fake
 * model server behind the real openai SDK, commands in real ptys.
 */
const redis = await startRedis();
afterAll(() => redis?.stop());
const bed = fakeModelBed({ fakePer: 'file' });
const nodes: TestServer[] = [];

async function twoNodes(): Promise<{ a: TestServer; b: TestServer }> {
  const keyPrefix = clusterPrefix();
  const a = await startNode(redis!, 'node-a', { keyPrefix, env: bed.env() });
  nodes.push(a);
  const b = await startNode(redis!, 'node-b', { keyPrefix, env: bed.env() });
  nodes.push(b);
  return { a, b };
}

afterAll(async () => {
  for (const node of nodes.splice(0)) await node.stop();
});

const onlyTypes = (events: SessionEvent[]) => events.map((e) => e.type);

describe.skipIf(!redis)('two nodes on one Redis', () => {
  it('lists every session on every node; a session created through B runs on B', async () => {
    const { a, b } = await twoNodes();
    const alice = await a.connect('alice');
    const bob = await b.connect('bob');
    const onA = (await alice.ok('session:create', { title: 'made on a' })).session;
    const onB = (await bob.ok('session:create', { title: 'made on b' })).session;
    expect(a.app.sessions.get(onA.id)).toBeDefined();
    expect(b.app.sessions.get(onB.id)).toBeDefined();
    expect(a.app.sessions.get(onB.id)).toBeUndefined();
    for (const client of [alice, bob]) {
      const ids = (await client.ok('session:list', {})).sessions.map((s) => s.id);
      expect(ids).toEqual(expect.arrayContaining([onA.id, onB.id]));
    }
  });

  it('a driver on A and a viewer on B see identical persisted seq lists for a turn with a pty command', async () => {
    const { a, b } = await twoNodes();
    const alice = await a.connect('alice');
    const vera = await b.connect('vera', TOKENS.view);
    const { session } = await alice.ok('session:create', { title: 'pty turn' });
    const driver = await AttachedView.attach(alice, session.id, 'driver');
    alice.approveAll(session.id);
    const viewer = await AttachedView.attach(vera, session.id, 'viewer');
    await driver.waitFor((e) => e.type === 'presence' && e.clients.some((c) => c.name === 'vera'));

    bed.fake.enqueue({ toolCalls: [{ name: 'run_command', args: { command: 'echo one; sleep 0.2; echo two' } }] }, { chunks: ['All ', 'done.'] });
    expect(await alice.ok('session:send', { sessionId: session.id, text: 'run it' })).toMatchObject({ mode: 'turn' });
    await driver.waitFor((e) => e.type === 'turn_done');
    await viewer.waitFor((e) => e.type === 'turn_done');

    expect(viewer.seqs()).toEqual(driver.seqs());
    expect(viewer.persisted()).toEqual(driver.persisted());
    expect(driver.gaps).toEqual([]);
    expect(viewer.gaps).toEqual([]);
    const types = onlyTypes(viewer.persisted());
    expect(types).toContain('command_output');
    expect(types.indexOf('command_output')).toBeLessThan(types.indexOf('tool_result'));
    const output = viewer
      .persisted()
      .map((e) => (e.type === 'command_output' ? e.data : ''))
      .join('');
    expect(output).toContain('two');
    // The seq list is the owner's log, without a hole.
    const all = viewer.seqs();
    expect(all).toEqual(Array.from({ length: all.length }, (_, i) => i + 1));
    // A viewer may not drive, whichever node it is on.
    const refused = await vera.request('session:send', { sessionId: session.id, text: 'hi' });
    expect(refused.ok === false && refused.error.code).toBe('forbidden');
    // The list on B shows the session's state as A publishes it.
    const listed = await until(
      () => vera.ok('session:list', {}),
      (r) => r.sessions.find((s) => s.id === session.id)?.lastSeq === all.at(-1),
      'B lists the last seq',
    );
    expect(listed.sessions.find((s) => s.id === session.id)?.status).toBe('idle');
  });

  it('a driver on B types into a command running on A, then cancels the next turn', async () => {
    const { a, b } = await twoNodes();
    const alice = await a.connect('alice');
    const bob = await b.connect('bob');
    const { session } = await alice.ok('session:create', { title: 'typed from b' });
    const driver = await AttachedView.attach(bob, session.id, 'driver');
    bob.approveAll(session.id);
    bed.fake.enqueue({ toolCalls: [{ name: 'run_command', args: { command: 'read -p "name? " who; echo "hello $who"' } }] }, { text: 'Greeted.' });
    await bob.ok('session:send', { sessionId: session.id, text: 'greet' });
    const prompt = await driver.waitFor((e) => e.type === 'command_output' && e.data.includes('name?'));
    const callId = prompt.type === 'command_output' ? prompt.callId : '';
    await bob.ok('command:input', { sessionId: session.id, callId, data: 'tandem\r' });
    const result = await driver.waitFor((e) => e.type === 'tool_result');
    expect(result.type === 'tool_result' && result.output).toContain('hello tandem');
    await driver.waitFor((e) => e.type === 'turn_done');

    // One reply only: the cancelled turn never asks the model again (the fake's queue is shared by this file's tests).
    bed.fake.enqueue({ toolCalls: [{ name: 'run_command', args: { command: 'echo waiting; sleep 30' } }] });
    await bob.ok('session:send', { sessionId: session.id, text: 'wait' });
    await driver.waitFor((e) => e.type === 'command_output' && e.data.includes('waiting'));
    await bob.ok('session:cancel', { sessionId: session.id });
    await driver.waitFor((e) => e.type === 'turn_cancelled');
    expect(a.app.sessions.require(session.id).status).toBe('idle');
  });

  it('presence on the owner follows clients of other nodes: attach, detach, disconnect', async () => {
    const { a, b } = await twoNodes();
    const alice = await a.connect('alice');
    const vera = await b.connect('vera', TOKENS.view);
    const bob = await b.connect('bob');
    const { session } = await alice.ok('session:create', { title: 'presence' });
    const driver = await AttachedView.attach(alice, session.id, 'driver');
    await AttachedView.attach(vera, session.id, 'viewer');
    await AttachedView.attach(bob, session.id, 'driver');
    const names = (e: SessionEvent) => (e.type === 'presence' ? e.clients.map((c) => `${c.name}:${c.role}`).sort() : []);
    await driver.waitFor((e) => names(e).join() === 'alice:driver,bob:driver,vera:viewer');
    let mark = driver.seqs().at(-1)!;
    await bob.ok('session:detach', { sessionId: session.id });
    await driver.waitFor((e) => e.seq > mark && names(e).join() === 'alice:driver,vera:viewer');
    const detached = await bob.request('session:send', { sessionId: session.id, text: 'not attached' });
    expect(detached.ok === false && detached.error.code).toBe('forbidden');
    mark = driver.seqs().at(-1)!;
    vera.close();
    await driver.waitFor((e) => e.seq > mark && names(e).join() === 'alice:driver');
    expect(presenceNames(a, session.id)).toEqual(['alice']);
  });

  it('a viewer on B gets the permission request and a driver on B answers it; the command runs on A', async () => {
    const { a, b } = await twoNodes();
    const alice = await a.connect('alice');
    const vera = await b.connect('vera', TOKENS.view);
    const bob = await b.connect('bob');
    const { session } = await alice.ok('session:create', { title: 'approve from b' });
    const viewer = await AttachedView.attach(vera, session.id, 'viewer');
    const driver = await AttachedView.attach(bob, session.id, 'driver');

    bed.fake.enqueue({ toolCalls: [{ name: 'run_command', args: { command: 'echo approved-on-b > marker.txt; cat marker.txt' } }] }, { text: 'ok' });
    expect(await bob.ok('session:send', { sessionId: session.id, text: 'write the marker' })).toMatchObject({ mode: 'turn' });
    const request = await viewer.waitFor((e) => e.type === 'permission_request');
    const requestId = request.type === 'permission_request' ? request.requestId : '';
    const viewerAnswer = await vera.request('permission:respond', { sessionId: session.id, requestId, decision: 'allow_once' });
    expect(viewerAnswer.ok === false && viewerAnswer.error.code).toBe('forbidden');
    await bob.ok('permission:respond', { sessionId: session.id, requestId, decision: 'allow_once' });
    const resolved = await viewer.waitFor((e) => e.type === 'permission_resolved');
    expect(resolved).toMatchObject({ requestId, decision: 'allow_once', by: 'bob' });
    const result = await viewer.waitFor((e) => e.type === 'tool_result');
    expect(result.type === 'tool_result' && result.output).toContain('approved-on-b');
    await driver.waitFor((e) => e.type === 'turn_done');
    expect(driver.seqs()).toEqual(viewer.seqs());
    // The command ran on A, in the session's workspace there.
    const { readFile } = await import('node:fs/promises');
    expect((await readFile(`${a.app.sessions.require(session.id).meta.cwd}/marker.txt`, 'utf8')).trim()).toBe('approved-on-b');
  });
});
