import { randomInt } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { Writable } from 'node:stream';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SessionEvent } from '@tandem/shared';
import { FakeClock } from '@tandem/testkit';
import { AUDIT_FILE } from '../src/audit/audit-log.js';
import { PermissionStore, workspaceKey } from '../src/permissions/index.js';
import { runServe } from '../src/index.js';
import { connectClient, fakeModelBed, startTestServer, tempDir, type TestClient, type TestServer, TOKENS } from './server-harness.js';

/**
 * The guards as `createApplication` wires them by default (no seams passed): permission gate,
 * call rate limit, audit log and command limiter, over real sockets, the real openai SDK against
 * the fake model server, and real ptys.
 */
const bed = fakeModelBed();

const env = () => bed.env();
type Opts = { dataDir?: string; defaultCwd?: string; clock?: FakeClock };

async function start(opts: Opts = {}): Promise<TestServer> {
  bed.server = await startTestServer({ env: env(), ...opts });
  return bed.server;
}

async function newSession(s: TestServer, name = 'alice'): Promise<{ alice: TestClient; sessionId: string }> {
  const alice = await s.connect(name);
  const { session } = await alice.ok('session:create', {});
  await alice.ok('session:attach', { sessionId: session.id, role: 'driver' });
  return { alice, sessionId: session.id };
}

async function attach(s: TestServer, name: string, sessionId: string, role: 'driver' | 'viewer' = 'driver'): Promise<TestClient> {
  const client = await s.connect(name, role === 'driver' ? TOKENS.control : TOKENS.view);
  await client.ok('session:attach', { sessionId, role });
  return client;
}

const command = (cmd: string) => ({ toolCalls: [{ name: 'run_command', args: { command: cmd } }] });
const isRequest = (e: SessionEvent) => e.type === 'permission_request';
const isDone = (e: SessionEvent) => e.type === 'turn_done';

async function asked(client: TestClient, after = 0): Promise<Extract<SessionEvent, { type: 'permission_request' }>> {
  const event = await client.waitFor((e) => isRequest(e) && e.seq > after);
  if (event.type !== 'permission_request') throw new Error('unreachable');
  return event;
}

describe('permissions by default', () => {
  it('asks every attached client; a viewer may not answer; of two drivers one wins, the other gets conflict; an unknown id is not_found; the audit says who decided', async () => {
    const s = await start();
    const { alice, sessionId } = await newSession(s);
    const carol = await attach(s, 'carol', sessionId);
    const bob = await attach(s, 'bob', sessionId, 'viewer');
    bed.fake.enqueue(command('printf guarded-by-default'), { text: 'ok' });
    await alice.ok('session:send', { sessionId, text: 'run it' });

    const request = await asked(alice);
    expect(await asked(bob)).toEqual(request);
    expect(request).toMatchObject({ tool: 'run_command', danger: 'dangerous' });
    const badScope = await alice.request('permission:respond', { sessionId, requestId: request.requestId, decision: 'allow_forever', scope: 'rm *' });
    expect(badScope).toMatchObject({ ok: false, error: { code: 'bad_request', message: expect.stringContaining('was not offered') } });
    const fromViewer = await bob.request('permission:respond', { sessionId, requestId: request.requestId, decision: 'allow_once' });
    expect(fromViewer).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    const replies = await Promise.all([
      alice.request('permission:respond', { sessionId, requestId: request.requestId, decision: 'allow_once' }),
      carol.request('permission:respond', { sessionId, requestId: request.requestId, decision: 'allow_once' }),
    ]);
    expect(replies.filter((r) => r.ok)).toHaveLength(1);
    expect(replies.find((r) => !r.ok)).toMatchObject({ ok: false, error: { code: 'conflict' } });
    const winner = replies[0]!.ok ? 'alice' : 'carol';
    expect(await bob.waitFor((e) => e.type === 'permission_resolved')).toMatchObject({ requestId: request.requestId, by: winner, decision: 'allow_once' });
    await alice.waitFor(isDone);
    const unknown = await alice.request('permission:respond', { sessionId, requestId: 'no-such-request', decision: 'allow_once' });
    expect(unknown).toMatchObject({ ok: false, error: { code: 'not_found' } });

    const { records } = await alice.ok('audit:query', { sessionId });
    expect(records).toEqual([expect.objectContaining({ tool: 'run_command', decision: 'allow_once', decidedBy: winner, isError: false })]);
    const fromView = await bob.request('audit:query', {});
    expect(fromView).toMatchObject({ ok: false, error: { code: 'forbidden' } });
  });

  it('keeps allow_forever across a restart (the command runs without asking), lists and revokes it, then asks again', async () => {
    let s = await start();
    const { alice, sessionId } = await newSession(s);
    bed.fake.enqueue(command('printf forever-1'), { text: 'ok' });
    await alice.ok('session:send', { sessionId, text: 'first' });
    const request = await asked(alice);
    expect(request.scopes).toContain('printf *');
    await alice.ok('permission:respond', { sessionId, requestId: request.requestId, decision: 'allow_forever', scope: 'printf *' });
    await alice.waitFor(isDone);
    const dataDir = s.dataDir;
    await s.stop();

    s = await start({ dataDir });
    const dora = await attach(s, 'dora', sessionId);
    const from = dora.events.at(-1)?.seq ?? 0;
    bed.fake.enqueue(command('printf forever-2'), { text: 'ok' });
    await dora.ok('session:send', { sessionId, text: 'second' });
    await dora.waitFor((e) => isDone(e) && e.seq > from);
    const fresh = dora.persisted().filter((e) => e.seq > from);
    expect(fresh.some(isRequest)).toBe(false);
    expect(fresh.find((e) => e.type === 'tool_result')).toMatchObject({ isError: false, output: expect.stringContaining('forever-2') });
    expect((await dora.ok('audit:query', { sessionId })).records.at(-1)).toMatchObject({ decision: 'stored_rule', decidedBy: 'alice' });

    const { permissions } = await dora.ok('permissions:list', {});
    expect(permissions).toEqual([expect.objectContaining({ tool: 'run_command', match: 'prefix', pattern: 'printf', effect: 'allow', by: 'alice' })]);
    await dora.ok('permissions:revoke', { id: permissions[0]!.id });
    expect((await dora.ok('permissions:list', {})).permissions).toEqual([]);
    expect(await dora.request('permissions:revoke', { id: permissions[0]!.id })).toMatchObject({ ok: false, error: { code: 'not_found' } });

    const before = dora.events.at(-1)!.seq;
    bed.fake.enqueue(command('printf forever-3'), { text: 'ok' });
    await dora.ok('session:send', { sessionId, text: 'third' });
    const again = await asked(dora, before);
    await dora.ok('permission:respond', { sessionId, requestId: again.requestId, decision: 'deny_once' });
    expect(await dora.waitFor((e) => e.type === 'tool_result' && e.seq > before)).toMatchObject({ isError: true });
    await dora.waitFor((e) => isDone(e) && e.seq > before);
  });

  it('shows a request still open to a client that attaches later, who can answer it', async () => {
    const s = await start();
    const { alice, sessionId } = await newSession(s);
    bed.fake.enqueue(command('printf answered-late'), { text: 'ok' });
    await alice.ok('session:send', { sessionId, text: 'go' });
    await asked(alice);
    const erin = await s.connect('erin');
    const { events } = await erin.ok('session:attach', { sessionId, role: 'driver' });
    const pending = events.find(isRequest);
    if (pending?.type !== 'permission_request') throw new Error('the replay has no open request');
    await erin.ok('permission:respond', { sessionId, requestId: pending.requestId, decision: 'allow_once' });
    expect(await alice.waitFor((e) => e.type === 'permission_resolved')).toMatchObject({ by: 'erin', reason: 'answered' });
    expect(await alice.waitFor(isDone)).toMatchObject({ outcome: 'answered' });
    expect(alice.events.find((e) => e.type === 'tool_result')).toMatchObject({ output: expect.stringContaining('answered-late') });
  });

  it('denies on its own when nobody answers within config.json permissionTimeoutMs (fake clock), and the turn ends', async () => {
    const dataDir = (await tempDir('tandem-guards-timeout-')).path;
    await writeFile(join(dataDir, 'config.json'), JSON.stringify({ permissionTimeoutMs: 5000 }));
    const clock = new FakeClock(Date.now());
    const s = await start({ dataDir, clock });
    const { alice, sessionId } = await newSession(s);
    bed.fake.enqueue(command('printf never-runs'), { text: 'never' });
    await alice.ok('session:send', { sessionId, text: 'go' });
    const request = await asked(alice);
    expect(Date.parse(request.expiresAt)).toBe(clock.now() + 5000);
    await clock.advance(4999);
    await new Promise((r) => setTimeout(r, 50));
    expect(alice.events.some((e) => e.type === 'permission_resolved')).toBe(false);
    await clock.advance(1);
    expect(await alice.waitFor((e) => e.type === 'permission_resolved')).toMatchObject({
      requestId: request.requestId,
      decision: 'deny_once',
      by: 'system',
      reason: 'timeout',
    });
    expect(await alice.waitFor(isDone)).toMatchObject({ outcome: 'permission_timeout' });
    expect(alice.events.find((e) => e.type === 'tool_result')).toMatchObject({ isError: true, output: expect.stringContaining('timed out after 5 s') });
    expect(bed.fake.requests).toHaveLength(1); // the turn stopped: the model was not asked again
    expect((await alice.ok('audit:query', {})).records.at(-1)).toMatchObject({ decision: 'timeout', decidedBy: 'system' });
  });

  it('after a restart with a question open, the log closes it as expired and the turn as interrupted', async () => {
    let s = await start();
    const { alice, sessionId } = await newSession(s);
    bed.fake.enqueue(command('printf left-open'));
    await alice.ok('session:send', { sessionId, text: 'go' });
    const request = await asked(alice);
    const dataDir = s.dataDir;
    await s.stop();

    s = await start({ dataDir });
    const fay = await s.connect('fay');
    const { events, session } = await fay.ok('session:attach', { sessionId, role: 'driver' });
    const after = events.filter((e) => e.seq > request.seq);
    expect(after.find((e) => e.type === 'permission_resolved')).toMatchObject({
      requestId: request.requestId,
      decision: 'deny_once',
      by: 'system',
      reason: 'expired',
    });
    expect(after.some((e) => e.type === 'turn_interrupted')).toBe(true);
    expect(after.some((e) => e.type === 'tool_result' && !e.isError)).toBe(false);
    expect(session.status).toBe('idle');
    const late = await fay.request('permission:respond', { sessionId, requestId: request.requestId, decision: 'allow_once' });
    expect(late.ok).toBe(false);
  });

  it('refuses a blacklisted command without asking, even with a stored allow rule for the whole tool', async () => {
    const dataDir = (await tempDir('tandem-guards-black-')).path;
    const workspace = (await tempDir('tandem-guards-ws-')).path;
    const store = await PermissionStore.open({ dataDir });
    await store.add(await workspaceKey(workspace), { tool: 'run_command', match: 'tool', effect: 'allow', by: 'admin' });
    const s = await start({ dataDir, defaultCwd: workspace });
    const { alice, sessionId } = await newSession(s);
    bed.fake.enqueue(
      {
        toolCalls: [
          { name: 'run_command', args: { command: 'sudo rm -rf /tmp/nothing-here' } },
          { name: 'run_command', args: { command: 'echo rule-works' } },
        ],
      },
      { text: 'ok' },
    );
    await alice.ok('session:send', { sessionId, text: 'go' });
    await alice.waitFor(isDone);
    expect(alice.events.some(isRequest)).toBe(false);
    const results = alice.events.filter((e) => e.type === 'tool_result');
    expect(results[0]).toMatchObject({ isError: true, output: expect.stringContaining('blacklist') });
    expect(results[1]).toMatchObject({ isError: false, output: expect.stringContaining('rule-works') });
    const { records } = await alice.ok('audit:query', { sessionId });
    expect(records.map((r) => [r.decision, r.decidedBy])).toEqual([
      ['blacklisted', 'system'],
      ['stored_rule', 'admin'],
    ]);
  });

  it('waits out the identical-call cooldown with a rate_limit_wait event (fake clock)', async () => {
    const dataDir = (await tempDir('tandem-guards-rate-')).path;
    const workspace = (await tempDir('tandem-guards-ws-')).path;
    const store = await PermissionStore.open({ dataDir });
    await store.add(await workspaceKey(workspace), { tool: 'run_command', match: 'prefix', pattern: 'echo', effect: 'allow', by: 'admin' });
    const clock = new FakeClock(Date.now());
    const s = await start({ dataDir, defaultCwd: workspace, clock });
    const { alice, sessionId } = await newSession(s);
    bed.fake.enqueue(
      {
        toolCalls: [
          { name: 'run_command', args: { command: 'echo same' } },
          { name: 'run_command', args: { command: 'echo same' } },
        ],
      },
      { text: 'ok' },
    );
    await alice.ok('session:send', { sessionId, text: 'twice' });
    const wait = await alice.waitFor((e) => e.type === 'rate_limit_wait');
    expect(wait).toMatchObject({ tool: 'run_command', waitMs: 5000, reason: 'identical call cooldown' });
    await new Promise((r) => setTimeout(r, 50));
    expect(alice.events.filter((e) => e.type === 'tool_result')).toHaveLength(1);
    await clock.advance(5000);
    await alice.waitFor(isDone);
    expect(alice.events.filter((e) => e.type === 'tool_result' && !e.isError)).toHaveLength(2);
  });
});

describe('audit and flood control by default', () => {
  it('never writes a secret of the server environment to agent-audit.jsonl, even when the command prints it', async () => {
    const name = 'TANDEM_I1_SECRET_TOKEN';
    const secret = `quiet-${randomInt(100_000, 999_999)}-heron`;
    process.env[name] = secret;
    try {
      const s = await start();
      const { alice, sessionId } = await newSession(s);
      alice.approveAll(sessionId);
      bed.fake.enqueue(command(`echo ${secret}`), { text: 'printed' });
      await alice.ok('session:send', { sessionId, text: 'print it' });
      await alice.waitFor(isDone);
      expect(alice.events.find((e) => e.type === 'tool_result')).toMatchObject({ output: expect.stringContaining(secret) });
      const { records } = await alice.ok('audit:query', { sessionId });
      expect(records).toHaveLength(1);
      expect(JSON.stringify(records)).not.toContain(secret);
      await s.stop();
      bed.server = undefined;
      const text = await readFile(join(s.dataDir, AUDIT_FILE), 'utf8');
      expect(text).toContain('run_command');
      expect(text).not.toContain(secret);
    } finally {
      delete process.env[name];
    }
  });

  it('answers rate_limited to a connection flooding commands, and keeps serving others', async () => {
    const s = await start();
    const flood = await s.connect('flood');
    const replies = await Promise.all(Array.from({ length: 80 }, () => flood.request('session:list', {})));
    const limited = replies.filter((r) => !r.ok);
    expect(limited.length).toBeGreaterThan(0);
    expect(limited[0]).toMatchObject({ ok: false, error: { code: 'rate_limited', message: expect.stringContaining('retry in') } });
    const calm = await s.connect('calm');
    expect(await calm.request('session:list', {})).toMatchObject({ ok: true });
  });
});

describe('tandem serve', () => {
  it('runs with the guards: a command asks first, and the admin commands answer', async () => {
    const dataDir = (await tempDir('tandem-serve-guards-')).path;
    const workspace = (await tempDir('tandem-serve-ws-')).path;
    const sink = new Writable({ write: (_chunk, _encoding, done) => done() });
    const serve = await runServe({
      host: '127.0.0.1',
      port: 0,
      dataDir,
      env: { ...env(), TANDEM_MODEL: 'openai/fake-model' },
      handleSignals: false,
      stdout: sink,
    });
    try {
      const token = (await readFile(join(dataDir, 'token'), 'utf8')).trim();
      const alice = await connectClient(serve.url, 'alice', token);
      const { session } = await alice.ok('session:create', { cwd: workspace });
      await alice.ok('session:attach', { sessionId: session.id, role: 'driver' });
      bed.fake.enqueue(command('printf via-serve'), { text: 'ok' });
      await alice.ok('session:send', { sessionId: session.id, text: 'go' });
      const request = await asked(alice);
      await alice.ok('permission:respond', { sessionId: session.id, requestId: request.requestId, decision: 'allow_once' });
      await alice.waitFor(isDone);
      expect((await alice.ok('audit:query', {})).records).toEqual([expect.objectContaining({ decision: 'allow_once', decidedBy: 'alice' })]);
      expect(await alice.ok('permissions:list', {})).toEqual({ permissions: [] });
      alice.close();
    } finally {
      await serve.close();
    }
  });
});
