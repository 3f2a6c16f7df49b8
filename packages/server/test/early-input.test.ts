import { describe, expect, it } from 'vitest';
import { fakeModelBed, startTestServer } from './server-harness.js';

/**
 * Input typed into a command before its pty exists (right after the approval, or even while
 * the question is open) is held until the command runs, not lost; input for a call that never
 * runs is refused once the call ends.
 */
const bed = fakeModelBed();

describe('command input typed before the command runs', () => {
  it('reaches the command once it starts', async () => {
    bed.server = await startTestServer({ env: bed.env() });
    const alice = await bed.server.connect('alice');
    const { session } = await alice.ok('session:create', {});
    const sessionId = session.id;
    await alice.ok('session:attach', { sessionId, role: 'driver' });
    bed.fake.enqueue({ toolCalls: [{ name: 'run_command', args: { command: 'read -r line; printf "got %s\\n" "$line"' } }] }, { text: 'Read it.' });
    await alice.ok('session:send', { sessionId, text: 'read a line' });
    const request = await alice.waitFor((e) => e.type === 'permission_request');
    if (request.type !== 'permission_request') throw new Error('unreachable');
    // Typed while the question is still open: the pty does not exist yet.
    const typed = alice.request('command:input', { sessionId, callId: request.callId, data: 'hello\r' });
    await alice.ok('permission:respond', { sessionId, requestId: request.requestId, decision: 'allow_once' });
    expect(await typed).toEqual({ ok: true, data: {} });
    const result = await alice.waitFor((e) => e.type === 'tool_result');
    expect(result.type === 'tool_result' && result.output).toContain('got hello');
    expect(alice.persisted().some((e) => e.type === 'command_input' && e.data === 'hello\r' && e.by === 'alice')).toBe(true);
  });

  it('is refused when the call ends without running', async () => {
    bed.server = await startTestServer({ env: bed.env() });
    const alice = await bed.server.connect('alice');
    const { session } = await alice.ok('session:create', {});
    const sessionId = session.id;
    await alice.ok('session:attach', { sessionId, role: 'driver' });
    bed.fake.enqueue({ toolCalls: [{ name: 'run_command', args: { command: 'read -r line' } }] }, { text: 'Denied.' });
    await alice.ok('session:send', { sessionId, text: 'read a line' });
    const request = await alice.waitFor((e) => e.type === 'permission_request');
    if (request.type !== 'permission_request') throw new Error('unreachable');
    const typed = alice.request('command:input', { sessionId, callId: request.callId, data: 'hello\r' });
    await alice.ok('permission:respond', { sessionId, requestId: request.requestId, decision: 'deny_once' });
    const reply = await typed;
    expect(reply.ok === false && reply.error.code).toBe('not_found');
  });
});
