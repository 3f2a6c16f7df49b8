import { access, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ApprovalMode, AuditRecord, SessionEvent } from '@tandem/shared';
import { FakeClock } from '@tandem/testkit';
import { fakeModelBed, startTestServer, tempDir, type TestClient, type TestServer } from './server-harness.js';

/**
 * The safety gate through real turns (requirements U2, U4, U6; issue 10's order): the openai SDK against
 * the fake model server, real sockets, real files and real ptys. Each test checks what a person
 * sees (permission_request or not, tool_call's danger and reason) and the one audit record.
 */
const bed = fakeModelBed();

const isRequest = (e: SessionEvent) => e.type === 'permission_request';
const isDone = (e: SessionEvent) => e.type === 'turn_done';
const calls = (...toolCalls: Array<{ name: string; args: Record<string, unknown> }>) => ({ toolCalls });

async function start(opts: { dataDir?: string; clock?: FakeClock } = {}): Promise<{ s: TestServer; alice: TestClient; sessionId: string; workspace: string }> {
  const workspace = (await tempDir('tandem-gate-ws-')).path;
  await writeFile(join(workspace, 'notes.txt'), 'first line\n');
  const s = await startTestServer({ env: bed.env(), defaultCwd: workspace, ...opts });
  bed.server = s;
  const alice = await s.connect('alice');
  const { session } = await alice.ok('session:create', {});
  await alice.ok('session:attach', { sessionId: session.id, role: 'driver' });
  return { s, alice, sessionId: session.id, workspace };
}

async function setMode(alice: TestClient, sessionId: string, mode: ApprovalMode): Promise<void> {
  const { session } = await alice.ok('session:configure', { sessionId, mode });
  expect(session.mode).toBe(mode);
  // Everyone attached sees the change; wait for it so later `from` seqs follow it.
  await alice.waitFor((e) => e.type === 'session_configured' && e.mode === mode);
}

/** Sends one message and waits for its turn to end, without answering any question. */
async function turn(alice: TestClient, sessionId: string, text: string, end: (e: SessionEvent) => boolean = isDone): Promise<SessionEvent[]> {
  const from = alice.events.at(-1)?.seq ?? 0;
  await alice.ok('session:send', { sessionId, text });
  await alice.waitFor((e) => end(e) && e.seq > from);
  return alice.persisted().filter((e) => e.seq > from);
}

async function records(alice: TestClient, sessionId: string): Promise<AuditRecord[]> {
  return (await alice.ok('audit:query', { sessionId })).records;
}

const exists = (file: string) =>
  access(file).then(
    () => true,
    () => false,
  );

describe('asking only when it matters (requirements U4)', () => {
  it('runs read-only commands without a question; the tool_call says why and is safe; anything that could write still asks', async () => {
    const { alice, sessionId } = await start();
    bed.fake.enqueue(calls({ name: 'run_command', args: { command: 'ls -a && cat notes.txt | wc -l' } }), { text: 'listed' });
    const events = await turn(alice, sessionId, 'look around');
    expect(events.some(isRequest)).toBe(false);
    expect(events.find((e) => e.type === 'tool_call')).toMatchObject({ danger: 'safe', reason: 'read-only command: ls, cat, wc' });
    expect(events.find((e) => e.type === 'tool_result')).toMatchObject({ isError: false, outcome: 'ok', output: expect.stringContaining('notes.txt') });
    expect((await records(alice, sessionId)).at(-1)).toMatchObject({ decision: 'read_only', outcome: 'ok', danger: 'safe' });

    // A redirect into a file, a substitution, a path outside the workspace: each still asks.
    for (const command of ['ls > listing.txt', 'cat $(echo notes.txt)', 'cat /etc/hostname', 'find . -fprint found.txt']) {
      const from = alice.events.at(-1)?.seq ?? 0;
      bed.fake.enqueue(calls({ name: 'run_command', args: { command } }), { text: 'done' });
      await alice.ok('session:send', { sessionId, text: command });
      const asked = await alice.waitFor((e) => isRequest(e) && e.seq > from);
      expect(asked).toMatchObject({ tool: 'run_command', danger: 'dangerous' });
      if (asked.type !== 'permission_request') throw new Error('unreachable');
      await alice.ok('permission:respond', { sessionId, requestId: asked.requestId, decision: 'deny_once' });
      await alice.waitFor((e) => isDone(e) && e.seq > from);
    }
  });

  it('takes the list from config.json readOnlyCommands ([] makes every command ask)', async () => {
    const dataDir = (await tempDir('tandem-gate-data-')).path;
    await writeFile(join(dataDir, 'config.json'), JSON.stringify({ readOnlyCommands: ['pwd'] }));
    const { alice, sessionId } = await start({ dataDir });
    bed.fake.enqueue(calls({ name: 'run_command', args: { command: 'pwd' } }), { text: 'here' });
    const events = await turn(alice, sessionId, 'where');
    expect(events.some(isRequest)).toBe(false);
    expect(events.find((e) => e.type === 'tool_call')).toMatchObject({ danger: 'safe', reason: 'read-only command: pwd' });

    const from = alice.events.at(-1)?.seq ?? 0;
    bed.fake.enqueue(calls({ name: 'run_command', args: { command: 'ls' } }), { text: 'done' });
    await alice.ok('session:send', { sessionId, text: 'list' });
    const asked = await alice.waitFor((e) => isRequest(e) && e.seq > from);
    if (asked.type !== 'permission_request') throw new Error('unreachable');
    await alice.ok('permission:respond', { sessionId, requestId: asked.requestId, decision: 'deny_once' });
    await alice.waitFor((e) => isDone(e) && e.seq > from);
  });

  it('keeps the blacklist first: a blacklisted command beside read-only ones is blocked, never asked', async () => {
    const { alice, sessionId } = await start();
    bed.fake.enqueue(calls({ name: 'run_command', args: { command: 'ls; sudo cat /etc/shadow' } }), { text: 'no' });
    const events = await turn(alice, sessionId, 'try');
    expect(events.some(isRequest)).toBe(false);
    expect(events.find((e) => e.type === 'tool_result')).toMatchObject({ isError: true, outcome: 'blocked', output: expect.stringContaining('blacklist') });
    expect((await records(alice, sessionId)).at(-1)).toMatchObject({ decision: 'blacklisted', outcome: 'blocked' });
  });
});

describe('order: the path sandbox before the permission step (issue 10)', () => {
  it('refuses a write_file outside the workspace without a permission_request, and writes nothing', async () => {
    const { alice, sessionId, workspace } = await start();
    const name = `escape-${process.pid}-${Date.now()}.txt`;
    const outside = join(workspace, '..', name);
    bed.fake.enqueue(calls({ name: 'write_file', args: { path: `../${name}`, content: 'x' } }), { text: 'refused' });
    const events = await turn(alice, sessionId, 'write outside');
    expect(events.some(isRequest)).toBe(false);
    const result = events.find((e) => e.type === 'tool_result');
    expect(result).toMatchObject({ isError: true, outcome: 'refused', output: expect.stringContaining('path sandbox') });
    expect(events.find((e) => e.type === 'tool_call')).toMatchObject({ reason: expect.stringContaining('path sandbox') });
    expect(await exists(outside)).toBe(false);
    expect((await records(alice, sessionId)).at(-1)).toMatchObject({ tool: 'write_file', outcome: 'refused', decision: 'not_checked' });
  });
});

describe('approval modes (requirements U2)', () => {
  it('ask (the default): a file edit asks', async () => {
    const { alice, sessionId } = await start();
    expect((await alice.ok('session:list', {})).sessions[0]?.mode).toBe('ask');
    const from = alice.events.at(-1)?.seq ?? 0;
    bed.fake.enqueue(calls({ name: 'write_file', args: { path: 'new.txt', content: 'hello\n' } }), { text: 'done' });
    await alice.ok('session:send', { sessionId, text: 'write' });
    const asked = await alice.waitFor((e) => isRequest(e) && e.seq > from);
    expect(asked).toMatchObject({ tool: 'write_file' });
    if (asked.type !== 'permission_request') throw new Error('unreachable');
    // The call is in the log before the question about it.
    const announced = alice.persisted().find((e) => e.type === 'tool_call' && e.callId === asked.callId);
    expect(announced?.seq).toBeLessThan(asked.seq);
    await alice.ok('permission:respond', { sessionId, requestId: asked.requestId, decision: 'deny_once' });
    await alice.waitFor((e) => isDone(e) && e.seq > from);
  });

  it('auto-edit: file edits inside the workspace run without asking; delete_file, .git and commands still ask', async () => {
    const { alice, sessionId, workspace } = await start();
    await setMode(alice, sessionId, 'auto-edit');
    bed.fake.enqueue(calls({ name: 'write_file', args: { path: 'src/new.txt', content: 'hello\n' } }), { text: 'written' });
    const events = await turn(alice, sessionId, 'write');
    expect(events.some(isRequest)).toBe(false);
    expect(events.find((e) => e.type === 'tool_call')).toMatchObject({ tool: 'write_file', reason: 'auto-edit mode: a file edit inside the workspace' });
    expect(await readFile(join(workspace, 'src/new.txt'), 'utf8')).toBe('hello\n');
    expect((await records(alice, sessionId)).at(-1)).toMatchObject({ decision: 'auto_edit', outcome: 'ok' });

    for (const call of [
      { name: 'delete_file', args: { path: 'notes.txt' } },
      { name: 'run_command', args: { command: 'touch made-by-command' } },
      { name: 'write_file', args: { path: '.git/info/exclude', content: 'x\n' } },
    ]) {
      const from = alice.events.at(-1)?.seq ?? 0;
      bed.fake.enqueue(calls(call), { text: 'done' });
      await alice.ok('session:send', { sessionId, text: call.name });
      const asked = await alice.waitFor((e) => isRequest(e) && e.seq > from);
      expect(asked).toMatchObject({ tool: call.name });
      if (asked.type !== 'permission_request') throw new Error('unreachable');
      await alice.ok('permission:respond', { sessionId, requestId: asked.requestId, decision: 'deny_once' });
      await alice.waitFor((e) => isDone(e) && e.seq > from);
    }
    expect(await exists(join(workspace, 'notes.txt'))).toBe(true);
    expect(await exists(join(workspace, 'made-by-command'))).toBe(false);
    // .git/config is a protected location: refused before anyone is asked, in every mode.
    const from = alice.events.at(-1)?.seq ?? 0;
    bed.fake.enqueue(calls({ name: 'write_file', args: { path: '.git/config', content: '[core]\n' } }), { text: 'done' });
    const refused = await turn(alice, sessionId, 'config');
    expect(refused.some(isRequest)).toBe(false);
    expect(refused.find((e) => e.type === 'tool_result' && e.seq > from)).toMatchObject({
      outcome: 'refused',
      output: expect.stringContaining('[sandbox rule: protected_path]'),
    });
  });

  it('read-only: writing tools and non-read-only commands are refused with a reason, never asked; reads still run; the change applies to the next call', async () => {
    const { alice, sessionId, workspace } = await start();
    await setMode(alice, sessionId, 'read-only');
    bed.fake.enqueue(
      calls(
        { name: 'write_file', args: { path: 'new.txt', content: 'x' } },
        { name: 'run_command', args: { command: 'touch made-by-command' } },
        { name: 'run_command', args: { command: 'cat notes.txt' } },
        { name: 'read_file', args: { path: 'notes.txt' } },
      ),
      { text: 'read only' },
    );
    const events = await turn(alice, sessionId, 'try everything');
    expect(events.some(isRequest)).toBe(false);
    const results = events.filter((e) => e.type === 'tool_result');
    expect(results.map((r) => r.type === 'tool_result' && [r.tool, r.outcome])).toEqual([
      ['write_file', 'refused'],
      ['run_command', 'refused'],
      ['run_command', 'ok'],
      ['read_file', 'ok'],
    ]);
    expect(results[0]).toMatchObject({ output: expect.stringContaining('read-only mode') });
    expect(results[1]).toMatchObject({ output: expect.stringContaining('not a read-only command') });
    expect(await exists(join(workspace, 'new.txt'))).toBe(false);
    expect(await exists(join(workspace, 'made-by-command'))).toBe(false);
    expect((await records(alice, sessionId)).map((r) => [r.decision, r.outcome])).toEqual([
      ['mode_refused', 'refused'],
      ['mode_refused', 'refused'],
      ['read_only', 'ok'],
      ['safe', 'ok'],
    ]);

    // Back to ask: the next call asks again.
    await setMode(alice, sessionId, 'ask');
    const from = alice.events.at(-1)?.seq ?? 0;
    bed.fake.enqueue(calls({ name: 'write_file', args: { path: 'new.txt', content: 'x' } }), { text: 'done' });
    await alice.ok('session:send', { sessionId, text: 'write again' });
    const asked = await alice.waitFor((e) => isRequest(e) && e.seq > from);
    if (asked.type !== 'permission_request') throw new Error('unreachable');
    await alice.ok('permission:respond', { sessionId, requestId: asked.requestId, decision: 'allow_once' });
    await alice.waitFor((e) => isDone(e) && e.seq > from);
    expect(await readFile(join(workspace, 'new.txt'), 'utf8')).toBe('x');
  });

  it('the blacklist applies in every mode', async () => {
    const { alice, sessionId } = await start();
    for (const mode of ['auto-edit', 'read-only'] as const) {
      await setMode(alice, sessionId, mode);
      bed.fake.enqueue(calls({ name: 'run_command', args: { command: 'rm -rf ~' } }), { text: 'no' });
      const events = await turn(alice, sessionId, mode);
      expect(events.some(isRequest)).toBe(false);
      expect(events.find((e) => e.type === 'tool_result')).toMatchObject({ outcome: 'blocked' });
    }
  });
});

describe('every call leaves one record (requirements U6)', () => {
  it('a command cancelled while it runs leaves one cancelled record', async () => {
    const { alice, sessionId } = await start();
    bed.fake.enqueue(calls({ name: 'run_command', args: { command: 'echo started; sleep 300' } }), { text: 'never' });
    const from = alice.events.at(-1)?.seq ?? 0;
    await alice.ok('session:send', { sessionId, text: 'long' });
    const asked = await alice.waitFor((e) => isRequest(e) && e.seq > from);
    if (asked.type !== 'permission_request') throw new Error('unreachable');
    await alice.ok('permission:respond', { sessionId, requestId: asked.requestId, decision: 'allow_once' });
    await alice.waitFor((e) => e.type === 'command_output' && e.data.includes('started'));
    await alice.ok('session:cancel', { sessionId });
    await alice.waitFor((e) => e.type === 'turn_cancelled' && e.seq > from);
    const mine = (await records(alice, sessionId)).filter((r) => r.tool === 'run_command');
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ outcome: 'cancelled', decision: 'allow_once', decidedBy: 'alice', isError: true });
  });

  it('a denied call and a permission timeout each leave one record saying so', async () => {
    const dataDir = (await tempDir('tandem-gate-timeouts-')).path;
    await writeFile(join(dataDir, 'config.json'), JSON.stringify({ permissionTimeoutMs: 5000 }));
    const clock = new FakeClock(Date.now());
    const { alice, sessionId } = await start({ dataDir, clock });

    let from = alice.events.at(-1)?.seq ?? 0;
    bed.fake.enqueue(calls({ name: 'run_command', args: { command: 'touch denied' } }), { text: 'ok' });
    await alice.ok('session:send', { sessionId, text: 'deny' });
    const asked = await alice.waitFor((e) => isRequest(e) && e.seq > from);
    if (asked.type !== 'permission_request') throw new Error('unreachable');
    await alice.ok('permission:respond', { sessionId, requestId: asked.requestId, decision: 'deny_once' });
    await alice.waitFor((e) => isDone(e) && e.seq > from);
    expect((await records(alice, sessionId)).at(-1)).toMatchObject({ decision: 'deny_once', outcome: 'denied' });

    from = alice.events.at(-1)?.seq ?? 0;
    bed.fake.enqueue(calls({ name: 'run_command', args: { command: 'touch unanswered' } }), { text: 'never' });
    await alice.ok('session:send', { sessionId, text: 'nobody answers' });
    await alice.waitFor((e) => isRequest(e) && e.seq > from);
    await clock.advance(5000);
    await alice.waitFor((e) => isDone(e) && e.seq > from);
    expect((await records(alice, sessionId)).at(-1)).toMatchObject({ decision: 'timeout', outcome: 'timeout' });

    expect((await records(alice, sessionId)).filter((r) => r.tool === 'run_command')).toHaveLength(2);
  });
});
