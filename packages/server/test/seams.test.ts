import { describe, expect, it } from 'vitest';
import { checkCommandBlacklist } from '@tandem/coding-tools';
import type { SessionEvent } from '@tandem/shared';
import { CommandError, type HandlerMap, type SessionHost } from '../src/index.js';
import { PermissionBroker, PermissionStore, SessionRuleSet, createPermissionGate } from '../src/permissions/index.js';
import { fakeModelBed, startTestServer, tempDir, TOKENS } from './server-harness.js';

/**
 * The seams other parts plug into: `gateFactory` (permission broker and gate), `handlers`
 * (permission:respond) and `hooks` (audit). Wired here with the real permission modules.
 */
const bed = fakeModelBed({ fakePer: 'file' });

describe('server seams', () => {
  it('a permission gate asks attached drivers, the session shows waiting_permission, hooks see the result', async () => {
    const dataDir = (await tempDir('tandem-seams-')).path;
    const store = await PermissionStore.open({ dataDir });
    const brokers = new WeakMap<SessionHost, PermissionBroker>();
    const byId = new Map<string, PermissionBroker>();
    const toolResults: SessionEvent[] = [];
    const handlers: HandlerMap = {
      'permission:respond': ({ sessionId, requestId, decision, scope }, { client }) => {
        const broker = byId.get(sessionId);
        if (!broker) throw new CommandError('not_found', `no session ${sessionId}`);
        const result = broker.respond(requestId, decision, scope, client.name);
        if (!result.ok) throw new CommandError(result.error, result.message);
        return {};
      },
    };
    bed.server = await startTestServer({
      dataDir,
      env: bed.env(),
      gate: (session) => {
        const broker = new PermissionBroker({ emit: (body) => session.emit(body) });
        brokers.set(session, broker);
        byId.set(session.id, broker);
        return createPermissionGate({ broker, store, workspace: session.meta.cwd, sessionRules: new SessionRuleSet(), blacklist: checkCommandBlacklist });
      },
      handlers,
      hooks: { onToolResult: (_session, event) => toolResults.push(event) },
    });
    const alice = await bed.server.connect('alice');
    const viewer = await bed.server.connect('viewer', TOKENS.view);
    const { session } = await alice.ok('session:create', {});
    await alice.ok('session:attach', { sessionId: session.id, role: 'driver' });
    await viewer.ok('session:attach', { sessionId: session.id, role: 'viewer' });
    bed.fake.enqueue({ toolCalls: [{ name: 'run_command', args: { command: 'echo approved-run' } }] }, { text: 'Done.' });
    await alice.ok('session:send', { sessionId: session.id, text: 'run it' });

    const request = await viewer.waitFor((e) => e.type === 'permission_request');
    const requestId = request.type === 'permission_request' ? request.requestId : '';
    expect((await alice.ok('session:list', {})).sessions[0]!.status).toBe('waiting_permission');
    const byViewer = await viewer.request('permission:respond', { sessionId: session.id, requestId, decision: 'allow_once' });
    expect(byViewer.ok === false && byViewer.error.code).toBe('forbidden');
    await alice.ok('permission:respond', { sessionId: session.id, requestId, decision: 'allow_once' });
    const resolved = await viewer.waitFor((e) => e.type === 'permission_resolved');
    expect(resolved).toMatchObject({ requestId, decision: 'allow_once', by: 'alice' });
    const result = await viewer.waitFor((e) => e.type === 'tool_result');
    expect(result.type === 'tool_result' && result.output).toContain('approved-run');
    await alice.waitFor((e) => e.type === 'turn_done');
    expect(toolResults).toHaveLength(1);
    expect(toolResults[0]!.seq).toBe(result.seq);
    expect((await alice.ok('session:list', {})).sessions[0]!.status).toBe('idle');
  });

  it('commands without a handler answer with a clear error, not silence', async () => {
    bed.server = await startTestServer({ guards: 'off' }); // audit:query comes with the guards
    const alice = await bed.server.connect('alice');
    const reply = await alice.request('audit:query', {});
    expect(reply.ok === false && reply.error.code).toBe('internal');
    expect(reply.ok === false && reply.error.message).toContain('not available');
  });
});
