import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EVERYTHING, MARKED_FIXTURE, driverSession, nextEvent, toolNames, writeMcpJson } from './mcp-harness.js';
import { fakeModelBed, startTestServer, tempDir } from './server-harness.js';

const bed = fakeModelBed();

describe("project MCP servers need a driver's approval of their exact launch", () => {
  it('is not started before approval, is asked before the first model request, the approving turn has its tools, a changed launch asks again', async () => {
    const dataDir = (await tempDir('tandem-data-')).path;
    bed.server = await startTestServer({ env: bed.env(), dataDir });
    const workspace = bed.server.workspace.path;
    const marker = join(dataDir, 'started.marker');
    const launch = { command: process.execPath, args: [MARKED_FIXTURE], env: { MCP_MARKER: marker } };
    writeMcpJson(join(workspace, '.mcp.json'), { proj: launch });
    const { client, sessionId } = await driverSession(bed.server);

    const before = await client.ok('mcp:list', { sessionId });
    expect(before.servers).toEqual([expect.objectContaining({ name: 'proj', scope: 'project', status: 'needs_approval', tools: [] })]);
    expect(existsSync(marker)).toBe(false);

    bed.fake.enqueue({ text: 'I see the project tools' });
    await client.ok('session:send', { sessionId, text: 'hi' });
    const ask = await nextEvent(client, 'permission_request');
    expect(ask).toMatchObject({
      tool: 'mcp_server',
      danger: 'dangerous',
      args: { name: 'proj', command: process.execPath, args: [MARKED_FIXTURE], env: ['MCP_MARKER'] },
    });
    expect(JSON.stringify(ask.args)).not.toContain(marker);
    expect(bed.fake.requests).toHaveLength(0);
    expect(existsSync(marker)).toBe(false);
    await client.ok('permission:respond', { sessionId, requestId: ask.requestId, decision: 'allow_once' });
    const done = await nextEvent(client, 'turn_done');
    expect(existsSync(marker)).toBe(true);
    expect(toolNames(bed.fake.requests[0]!)).toContain('mcp__proj__echo');
    expect((await client.ok('mcp:list', { sessionId })).servers).toEqual([expect.objectContaining({ name: 'proj', status: 'connected' })]);

    // Approved once for this launch: the next turn does not ask.
    bed.fake.enqueue({ text: 'still here' });
    await client.ok('session:send', { sessionId, text: 'again' });
    const second = await nextEvent(client, 'turn_done', done.seq);
    expect(client.events.filter((e) => e.type === 'permission_request')).toHaveLength(1);

    // The launch changes: asked again; refused: the server's tools are not offered.
    writeMcpJson(join(workspace, '.mcp.json'), { proj: { ...launch, args: [MARKED_FIXTURE, '--changed'] } });
    bed.fake.enqueue({ text: 'without proj' });
    await client.ok('session:send', { sessionId, text: 'and now' });
    const again = await nextEvent(client, 'permission_request', second.seq);
    expect(again).toMatchObject({ tool: 'mcp_server', args: { name: 'proj', args: [MARKED_FIXTURE, '--changed'] } });
    await client.ok('permission:respond', { sessionId, requestId: again.requestId, decision: 'deny_once' });
    await nextEvent(client, 'turn_done', second.seq);
    expect(toolNames(bed.fake.requests.at(-1)!).filter((n) => n.startsWith('mcp__'))).toEqual([]);
    expect((await client.ok('mcp:list', { sessionId })).servers).toEqual([
      expect.objectContaining({ name: 'proj', status: 'needs_approval', reason: expect.stringContaining('refused') }),
    ]);

    // Both decisions are in the audit log: who, what (the launch as shown, env names only), when, and the outcome.
    const { records } = await client.ok('audit:query', { sessionId });
    const launches = records.filter((r) => r.tool === 'mcp_server');
    const firstTurn = await nextEvent(client, 'turn_started');
    expect(launches).toEqual([
      expect.objectContaining({
        sessionId,
        turnId: firstTurn.turnId,
        tool: 'mcp_server',
        danger: 'dangerous',
        args: { name: 'proj', command: process.execPath, args: [MARKED_FIXTURE], env: ['MCP_MARKER'] },
        decision: 'allow_once',
        decidedBy: 'alice',
        outcome: 'ok',
        isError: false,
        resultSummary: expect.stringContaining('approved the launch of project MCP server "proj"'),
        ts: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      }),
      expect.objectContaining({
        tool: 'mcp_server',
        args: expect.objectContaining({ name: 'proj', args: [MARKED_FIXTURE, '--changed'] }),
        decision: 'deny_once',
        decidedBy: 'alice',
        outcome: 'denied',
        isError: true,
        resultSummary: expect.stringContaining('refused the launch of project MCP server "proj"'),
      }),
    ]);
    expect(JSON.stringify(launches)).not.toContain(marker);
    // …and on disk once the log is flushed.
    await bed.server.stop();
    bed.server = undefined;
    const lines = readFileSync(join(dataDir, 'agent-audit.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { tool: string; decision: string });
    expect(lines.filter((l) => l.tool === 'mcp_server').map((l) => l.decision)).toEqual(['allow_once', 'deny_once']);
  });
});

describe('MCP over Streamable HTTP', () => {
  it('connects to server-everything over HTTP, lists its tools, and a call goes through the gate', async () => {
    const port = await freePort();
    const child = spawn(process.execPath, [EVERYTHING, 'streamableHttp'], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] });
    try {
      await new Promise<void>((resolve, reject) => {
        let seen = '';
        child.stderr.on('data', (chunk: Buffer) => {
          seen += chunk.toString();
          if (seen.includes('listening on port')) resolve();
        });
        child.once('exit', (code) => reject(new Error(`server-everything exited (${code}): ${seen}`)));
      });
      const dataDir = (await tempDir('tandem-data-')).path;
      writeMcpJson(join(dataDir, 'mcp.json'), {
        remote: { type: 'http', url: `http://127.0.0.1:\${EVERYTHING_PORT:-0}/mcp`, headers: { 'X-Demo': '${DEMO_HEADER:-none}' } },
      });
      bed.server = await startTestServer({ env: { ...bed.env(), EVERYTHING_PORT: String(port) }, dataDir });
      const { client, sessionId } = await driverSession(bed.server);
      client.approveAll(sessionId);
      bed.fake.enqueue({ toolCalls: [{ name: 'mcp__remote__get-sum', args: { a: 2, b: 40 } }] }, { text: 'sum known' });
      await client.ok('session:send', { sessionId, text: 'add' });
      expect(await nextEvent(client, 'tool_result')).toMatchObject({ tool: 'mcp__remote__get-sum', isError: false, output: expect.stringContaining('42') });
      await nextEvent(client, 'turn_done');
      const { servers } = await client.ok('mcp:list', { sessionId });
      expect(servers).toEqual([
        expect.objectContaining({ name: 'remote', scope: 'user', status: 'connected', tools: expect.arrayContaining(['mcp__remote__echo']) }),
      ]);
    } finally {
      child.kill();
    }
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
    srv.once('error', reject);
  });
}
