import { describe, expect, it } from 'vitest';
import type { SessionEvent } from '@tandem/shared';
import { processesMatching, uniqueMarker, waitFor } from '../src/pty/process-probe.test-helper.js';
import { fakeModelBed, startTestServer, type TestClient, type TestServer, TOKENS } from './server-harness.js';

/**
 * The whole path: real server, real socket.io clients, core's loop and tools, the openai SDK
 * against the scripted fake model server, and commands in real ptys.
 */
const bed = fakeModelBed({ fakePer: 'file' });

async function startWithTwoClients(): Promise<{ alice: TestClient; bob: TestClient; sessionId: string; server: TestServer }> {
  const server = await startTestServer({
    env: bed.env(),
    defaultModel: 'openai/fake-model',
  });
  bed.server = server;
  const alice = await server.connect('alice');
  const bob = await server.connect('bob', TOKENS.view);
  const { session } = await alice.ok('session:create', { title: 'real' });
  await alice.ok('session:attach', { sessionId: session.id, role: 'driver' });
  alice.approveAll(session.id); // commands ask first (requirements P1); alice answers like a person would
  await bob.ok('session:attach', { sessionId: session.id, role: 'viewer' });
  await alice.waitFor((e) => e.type === 'presence' && e.clients.length === 2);
  await bob.waitFor((e) => e.type === 'presence' && e.clients.length === 2);
  return { alice, bob, sessionId: session.id, server };
}

const typesOf = (events: SessionEvent[]) => events.map((e) => e.type);

describe('a real turn that runs a command', () => {
  it('streams command output to every client before the tool result, in the same seq order', async () => {
    const { alice, bob, sessionId } = await startWithTwoClients();
    bed.fake.enqueue({ toolCalls: [{ name: 'run_command', args: { command: 'echo one; sleep 0.3; echo two' } }] }, { chunks: ['All ', 'done.'] });
    const from = bob.events.at(-1)!.seq;
    expect(await alice.ok('session:send', { sessionId, text: 'run it' })).toMatchObject({ mode: 'turn' });
    await alice.waitFor((e) => e.type === 'turn_done');
    const done = await bob.waitFor((e) => e.type === 'turn_done');
    expect(done.type === 'turn_done' && done.outcome).toBe('answered');

    const aliceEvents = alice.persisted().filter((e) => e.seq > from);
    const bobEvents = bob.persisted().filter((e) => e.seq > from);
    expect(bobEvents).toEqual(aliceEvents);
    const types = typesOf(aliceEvents);
    expect(types[0]).toBe('user_message');
    expect(types).toContain('tool_call');
    const firstOutput = types.indexOf('command_output');
    const result = types.indexOf('tool_result');
    expect(firstOutput).toBeGreaterThan(types.indexOf('tool_call'));
    expect(firstOutput).toBeLessThan(result);
    const output = aliceEvents
      .filter((e) => e.type === 'command_output')
      .map((e) => (e.type === 'command_output' ? e.data : ''))
      .join('');
    expect(output).toContain('one');
    expect(output).toContain('two');
    const toolResult = aliceEvents[result]!;
    expect(toolResult.type === 'tool_result' && toolResult.isError).toBe(false);
    expect(toolResult.type === 'tool_result' && toolResult.output).toContain('two');
    const text = aliceEvents.find((e) => e.type === 'assistant_text');
    expect(text?.type === 'assistant_text' && text.text).toBe('All done.');
    // The command ran in the session's workspace.
    const call = aliceEvents.find((e) => e.type === 'tool_call');
    expect(call?.type === 'tool_call' && call.tool).toBe('run_command');
    const info = (await alice.ok('session:list', {})).sessions[0]!;
    expect(info.status).toBe('idle');
    expect(info.lastSeq).toBe(aliceEvents.at(-1)!.seq);
  });

  it('lets a driver type into a command waiting on read; every client sees who typed', async () => {
    const { alice, bob, sessionId } = await startWithTwoClients();
    bed.fake.enqueue({ toolCalls: [{ name: 'run_command', args: { command: 'read -p "name? " who; echo "hello $who"' } }] }, { text: 'Greeted.' });
    await alice.ok('session:send', { sessionId, text: 'greet' });
    const prompt = await alice.waitFor((e) => e.type === 'command_output' && e.data.includes('name?'));
    const callId = prompt.type === 'command_output' ? prompt.callId : '';
    const denied = await bob.request('command:input', { sessionId, callId, data: 'mallory\r' });
    expect(denied.ok === false && denied.error.code).toBe('forbidden');
    const unknown = await alice.request('command:input', { sessionId, callId: 'no-such-call', data: 'x' });
    expect(unknown.ok === false && unknown.error.code).toBe('not_found');
    await alice.ok('command:input', { sessionId, callId, data: 'tandem\r' });
    const typed = await bob.waitFor((e) => e.type === 'command_input');
    expect(typed.type === 'command_input' && typed).toMatchObject({ callId, data: 'tandem\r', by: 'alice' });
    const result = await bob.waitFor((e) => e.type === 'tool_result');
    expect(result.type === 'tool_result' && result.output).toContain('hello tandem');
    await bob.waitFor((e) => e.type === 'turn_done');
  });

  it('kills a command past its timeout together with its children, and says so', async () => {
    const { alice, sessionId } = await startWithTwoClients();
    // Found by a marker in their command line: inside the OS sandbox, $$ and $! are PIDs of the
    // sandbox's own namespace, meaningless out here.
    const marker = uniqueMarker();
    bed.fake.enqueue(
      { toolCalls: [{ name: 'run_command', args: { command: `sleep ${marker} & echo "child started"; sleep ${marker}.5; wait`, timeout_seconds: 1 } }] },
      { text: 'It timed out.' },
    );
    await alice.ok('session:send', { sessionId, text: 'hang' });
    const result = await alice.waitFor((e) => e.type === 'tool_result');
    expect(result.type === 'tool_result' && result.isError).toBe(true);
    expect(result.type === 'tool_result' && result.output).toContain('timed out');
    const output = alice.events
      .filter((e) => e.type === 'command_output')
      .map((e) => (e.type === 'command_output' ? e.data : ''))
      .join('');
    expect(output).toContain('child started');
    expect(processesMatching(`sleep ${marker}`)).toEqual([]);
    await alice.waitFor((e) => e.type === 'turn_done');
  });

  it('cancels a turn while its command runs: the command dies, the turn is cancelled', async () => {
    const { alice, sessionId } = await startWithTwoClients();
    const marker = uniqueMarker();
    bed.fake.enqueue({ toolCalls: [{ name: 'run_command', args: { command: `echo started; sleep ${marker}` } }] });
    await alice.ok('session:send', { sessionId, text: 'hang' });
    await alice.waitFor((e) => e.type === 'command_output' && e.data.includes('started'));
    await waitFor(() => processesMatching(`sleep ${marker}`).length > 0, 'the sleep');
    await alice.ok('session:cancel', { sessionId });
    await alice.waitFor((e) => e.type === 'turn_cancelled');
    // The abort reaches the pty runner, which ends the command's process group (SIGTERM first).
    await waitFor(() => processesMatching(`sleep ${marker}`).length === 0, 'the sleep to end');
    expect(processesMatching(`sleep ${marker}`)).toEqual([]);
    expect((await alice.ok('session:list', {})).sessions[0]!.status).toBe('idle');
  });
});

describe('attaching mid-reply', () => {
  it('gives the late client the text so far, then the rest, adding up to the whole reply', async () => {
    const { alice, sessionId, server } = await startWithTwoClients();
    bed.fake.enqueue({ chunks: ['Hel', 'lo ', 'wor', 'ld, ', 'every', 'one'], chunkDelayMs: 120 });
    await alice.ok('session:send', { sessionId, text: 'greet' });
    await alice.waitFor((e) => e.type === 'text_delta' && e.delta === 'lo ');
    const carol = await server.connect('carol', TOKENS.view);
    await carol.ok('session:attach', { sessionId, role: 'viewer' });
    const done = await carol.waitFor((e) => e.type === 'assistant_text');
    const deltas = carol.events.filter((e) => e.type === 'text_delta').map((e) => (e.type === 'text_delta' ? e.delta : ''));
    expect(deltas[0]!.startsWith('Hello ')).toBe(true);
    expect(deltas.join('')).toBe('Hello world, everyone');
    expect(done.type === 'assistant_text' && done.text).toBe('Hello world, everyone');
  });
});

describe('conversation across a restart', () => {
  it('sends the earlier exchange to the model after the server restarts on the same data dir', async () => {
    const { alice, sessionId, server } = await startWithTwoClients();
    bed.fake.enqueue({ toolCalls: [{ name: 'run_command', args: { command: 'echo seen-by-tool' } }] }, { text: 'The word is kiwi.' });
    await alice.ok('session:send', { sessionId, text: 'remember the word kiwi' });
    await alice.waitFor((e) => e.type === 'turn_done');
    const dataDir = server.dataDir;
    await server.stop();

    bed.server = await startTestServer({ env: bed.env(), dataDir });
    const bob = await bed.server.connect('bob');
    await bob.ok('session:attach', { sessionId, role: 'driver' });
    const before = bed.fake.requests.length;
    bed.fake.enqueue({ text: 'kiwi' });
    await bob.ok('session:send', { sessionId, text: 'which word?' });
    await bob.waitFor((e) => e.type === 'turn_done');
    const request = bed.fake.requests[before]!;
    const messages = request.body.messages as Array<{ role: string; content?: unknown; tool_calls?: unknown[] }>;
    const text = JSON.stringify(messages);
    expect(text).toContain('remember the word kiwi');
    expect(text).toContain('seen-by-tool');
    expect(text).toContain('The word is kiwi.');
    expect(messages.at(-1)).toMatchObject({ role: 'user', content: 'which word?' });
    expect(messages.filter((m) => m.role === 'tool')).toHaveLength(1);
  });
});
