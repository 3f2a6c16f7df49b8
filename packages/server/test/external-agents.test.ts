import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { SessionEvent } from '@tandem/shared';
import type { FakeReply, FakeRequest } from '@tandem/testkit';
import { processesMatching, uniqueMarker, waitFor } from '../src/pty/process-probe.test-helper.js';
import { driverSession, nextEvent } from './mcp-harness.js';
import { fakeModelBed, startTestServer, tempDir, TOKENS, type TestClient } from './server-harness.js';

/**
 * External agents (an agent definition with `command:`) through real turns: a fake agent CLI
 * (test/fixtures/fake-external-agent.mjs) run by dispatch_to in a real pty inside the OS
 * sandbox, behind the default guards; the commander is the fake model server.
 */
const bed = fakeModelBed();
const FAKE_AGENT = fileURLToPath(new URL('./fixtures/fake-external-agent.mjs', import.meta.url));

function defineAgent(workspace: string, name: string, frontmatter: Record<string, unknown>, body = ''): void {
  const dir = join(workspace, '.tandem', 'agents');
  mkdirSync(dir, { recursive: true });
  const fields = Object.entries(frontmatter)
    .map(([k, v]) => `${k}: ${JSON.stringify(v)}\n`)
    .join('');
  writeFileSync(join(dir, `${name}.md`), `---\nname: ${name}\n${fields}---\n${body}\n`);
}

const toolResults = (req: FakeRequest): string[] =>
  ((req.body?.messages ?? []) as Array<{ role: string; content?: unknown }>).flatMap((m) => (m.role === 'tool' ? [String(m.content)] : []));

/** The commander dispatches `task` to `agent` once, then ends with the result it got. */
function commanderDispatching(agent: string, task: string): void {
  bed.fake.setHandler((req): FakeReply => {
    const results = toolResults(req);
    if (results.length === 0) return { toolCalls: [{ name: 'dispatch_to', args: { agent, task } }] };
    return { text: `The agent said: ${results[0]}` };
  });
}

/** Answers every permission request of the session with `decide(event)`. */
function answering(client: TestClient, sessionId: string, decide: (e: Extract<SessionEvent, { type: 'permission_request' }>) => string): void {
  client.socket.on('session:event', (event: SessionEvent) => {
    if (event.type !== 'permission_request') return;
    void client.request('permission:respond', { sessionId, requestId: event.requestId, decision: decide(event) });
  });
}

describe('external agents', () => {
  it("runs the command through run_command's gate, streams its output as the worker's text, and returns its output as the answer", async () => {
    const dataDir = (await tempDir('tandem-data-')).path;
    // The server's own secrets in its environment: an external agent is a command and gets none of them.
    const saved = { ...process.env };
    process.env.TANDEM_TOKEN = TOKENS.control;
    process.env.ANTHROPIC_API_KEY = 'sk-ant-server-key-for-tests';
    process.env.COPIED_ELSEWHERE = `x-${TOKENS.control}`;
    onTestFinished(() => {
      for (const name of ['TANDEM_TOKEN', 'ANTHROPIC_API_KEY', 'COPIED_ELSEWHERE']) {
        if (saved[name] === undefined) delete process.env[name];
        else process.env[name] = saved[name];
      }
    });
    bed.server = await startTestServer({ env: bed.env(), dataDir });
    const ws = bed.server.workspace.path;
    defineAgent(ws, 'helper', { description: 'A fake agent CLI.', command: `node ${FAKE_AGENT} --mode env {task}` }, 'PREAMBLE: you help.');
    commanderDispatching('helper', 'T1');
    const { client, sessionId } = await driverSession(bed.server);
    answering(client, sessionId, () => 'allow_once');

    await client.ok('session:send', { sessionId, text: 'ask the helper' });
    const started = await client.waitFor((e) => e.type === 'text_delta' && e.agent === 'helper' && e.delta.includes('STARTED'));
    // The agent is still running (it waits for the release file): its first line has already streamed.
    expect(client.events.some((e) => e.type === 'agent_done')).toBe(false);
    expect(started).toMatchObject({ taskId: expect.any(String) });
    expect(started.type === 'text_delta' && started.delta).not.toContain('\u001b');
    writeFileSync(join(ws, 'release-T1'), '');
    const done = await nextEvent(client, 'agent_done');
    expect(done).toMatchObject({ agent: 'helper', isError: false });
    expect(done.result).toContain('ANSWER: the fake agent is done');
    await client.waitFor((e) => e.type === 'turn_done' && e.agent === 'commander');

    // The permission request was run_command's, with the definition's line and the agent named.
    const asked = client.events.find((e) => e.type === 'permission_request');
    expect(asked).toMatchObject({ tool: 'run_command', agent: 'helper', args: { command: `node ${FAKE_AGENT} --mode env "$TANDEM_TASK"` } });
    const call = client.events.find((e) => e.type === 'tool_call' && e.agent === 'helper');
    expect(call).toMatchObject({ tool: 'run_command', sandbox: expect.stringMatching(/^bubblewrap/) });

    // Its environment: the task (after the definition's body), its name, the bridge, the shims first on PATH.
    const envLine = done.result.split('\n').find((l) => l.startsWith('ENV '))!;
    const env = JSON.parse(envLine.slice(4)) as Record<string, string>;
    expect(env.TANDEM_TASK).toBe('PREAMBLE: you help.\n\nT1');
    expect(env.TANDEM_AGENT).toBe('helper');
    expect(env.TANDEM_BRIDGE).toMatch(/^\/.+\.sock#[0-9a-f]{64}$/);
    expect(env.PATH?.split(':')[0]).toBe(join(dataDir, 'bin'));
    expect(Object.keys(env)).not.toContain('TANDEM_TOKEN');
    // Issue 29's rule holds for external agents: no token of the server, no provider key, by name or by value.
    const all = JSON.parse(readFileSync(join(ws, 'env-T1.json'), 'utf8')) as Record<string, string>;
    expect(Object.keys(all)).not.toContain('ANTHROPIC_API_KEY');
    expect(Object.keys(all)).not.toContain('COPIED_ELSEWHERE');
    expect(Object.values(all).some((v) => v.includes(TOKENS.control) || v.includes(TOKENS.view))).toBe(false);
    // The bridge's credential is its own, made for this run.
    expect(env.TANDEM_BRIDGE).not.toContain(TOKENS.control);

    // The commander got the answer as its tool result; the audit names the agent.
    expect(toolResults(bed.fake.requests.at(-1)!)[0]).toContain('ANSWER: the fake agent is done');
    const { records } = await client.ok('audit:query', { sessionId });
    expect(records.find((r) => r.tool === 'run_command')).toMatchObject({ agent: 'helper', outcome: 'ok', decision: 'allow_once' });
  });

  it('a failing agent CLI is an error result for the commander; a denied one never runs', async () => {
    bed.server = await startTestServer({ env: bed.env() });
    const ws = bed.server.workspace.path;
    defineAgent(ws, 'broken', { description: 'Fails.', command: `node ${FAKE_AGENT} --mode fail` });
    commanderDispatching('broken', 'T2');
    const { client, sessionId } = await driverSession(bed.server);
    answering(client, sessionId, () => 'allow_once');
    await client.ok('session:send', { sessionId, text: 'try it' });
    const done = await nextEvent(client, 'agent_done');
    expect(done).toMatchObject({ agent: 'broken', isError: true });
    expect(done.result).toMatch(/broken \(node\) ended with exit code 3: something went wrong in the fake agent/);
  });

  it('a denied agent CLI never runs; @NAME gives an external agent the message directly, in the group chat', async () => {
    bed.server = await startTestServer({ env: bed.env() });
    const ws = bed.server.workspace.path;
    defineAgent(ws, 'helper', { description: 'A fake agent CLI.', command: `node ${FAKE_AGENT} --mode env {task}` });
    commanderDispatching('helper', 'T5');
    const { client, sessionId } = await driverSession(bed.server);
    let decision = 'deny_once';
    answering(client, sessionId, () => decision);
    await client.ok('session:send', { sessionId, text: 'try it' });
    const denied = await nextEvent(client, 'agent_done');
    expect(denied).toMatchObject({ agent: 'helper', isError: true, result: expect.stringContaining('denied') });
    expect(client.events.some((e) => e.type === 'text_delta' && e.agent === 'helper')).toBe(false);
    const first = await client.waitFor((e) => e.type === 'turn_done' && e.agent === 'commander');

    decision = 'allow_once';
    writeFileSync(join(ws, 'release-T6'), '');
    await client.ok('session:send', { sessionId, text: '@helper T6' });
    const answer = await client.waitFor((e) => e.type === 'assistant_text' && e.agent === 'helper' && e.seq > first.seq);
    expect(answer.type === 'assistant_text' && answer.text).toContain('ANSWER: the fake agent is done');
    const done = await client.waitFor((e) => e.type === 'turn_done' && e.agent === 'helper' && e.seq > first.seq);
    expect(done).toMatchObject({ outcome: 'answered', model: 'external/node' });
  });

  it("reaches the network only through the proxy, asked like any command's connection, and never its own server", async () => {
    // The agent CLI's "provider API": a server on loopback that answers one line.
    const api = createServer((_req, res) => res.end('hello from the API'));
    await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
    onTestFinished(() => new Promise<void>((resolve) => api.close(() => resolve())));
    const apiPort = (api.address() as AddressInfo).port;
    bed.server = await startTestServer({ env: bed.env() });
    const ws = bed.server.workspace.path;
    const serverPort = Number(new URL(bed.server.url).port);
    const curl = 'curl -sS --max-time 20';
    defineAgent(ws, 'netty', {
      description: 'Uses the network.',
      command: `${curl} {task}; echo; ${curl} http://127.0.0.1:${serverPort}/; echo " rc=$?"`,
    });
    commanderDispatching('netty', `http://127.0.0.1:${apiPort}/`);
    const { client, sessionId } = await driverSession(bed.server);
    answering(client, sessionId, () => 'allow_once');
    await client.ok('session:send', { sessionId, text: 'go' });
    const done = await nextEvent(client, 'agent_done');
    expect(done).toMatchObject({ agent: 'netty', isError: false });
    expect(done.result).toContain('hello from the API');
    expect(done.result).toContain(`Tandem refused the connection to 127.0.0.1:${serverPort}: it is the port of the Tandem server that runs this command`);
    expect(done.result).not.toMatch(/tandem server: connect with a tandem client|<html/);
    // The API's host was a question of the session (config.json sandbox.network "ask"); the server's port never was.
    const asked = client.events.flatMap((e) => (e.type === 'permission_request' ? [[e.tool, e.args]] : []));
    expect(asked).toContainEqual(['network', expect.objectContaining({ host: '127.0.0.1', port: apiPort })]);
    expect(asked).not.toContainEqual(['network', expect.objectContaining({ port: serverPort })]);
  });

  it('session:cancel stops the agent CLI and everything it started (its whole process group)', async () => {
    const marker = uniqueMarker();
    bed.server = await startTestServer({ env: bed.env() });
    const ws = bed.server.workspace.path;
    defineAgent(ws, 'stuck', { description: 'Never ends.', command: `node ${FAKE_AGENT} --mode hang --marker ${marker}` });
    commanderDispatching('stuck', 'T3');
    const { client, sessionId } = await driverSession(bed.server);
    answering(client, sessionId, () => 'allow_once');
    await client.ok('session:send', { sessionId, text: 'start it' });
    await client.waitFor((e) => e.type === 'text_delta' && e.agent === 'stuck' && e.delta.includes('STARTED'));
    expect(processesMatching(String(marker)).length).toBeGreaterThanOrEqual(2);
    await client.ok('session:cancel', { sessionId });
    await nextEvent(client, 'turn_cancelled');
    const done = await nextEvent(client, 'agent_done');
    expect(done).toMatchObject({ agent: 'stuck', isError: true, result: expect.stringContaining('stopped') });
    await waitFor(() => processesMatching(String(marker)).length === 0, 'the agent and its children to be gone');
    expect(processesMatching(String(marker))).toEqual([]);
  });
});
