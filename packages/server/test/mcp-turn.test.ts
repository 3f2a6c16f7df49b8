import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { addUserServer } from '../src/mcp/user-mcp-file.js';
import { CRASH_FIXTURE, EVERYTHING, MEMORY, driverSession, filesContaining, nextEvent, systemOf, toolNames, writeMcpJson } from './mcp-harness.js';
import { fakeModelBed, startTestServer, tempDir } from './server-harness.js';

/**
 * MCP servers through real turns: the real openai SDK against the fake model server, real
 * sockets, the default guards (permission gate, audit), and the real reference MCP servers
 * from npm over stdio.
 */
const bed = fakeModelBed();
const SECRET = 'sk-mcp-secret-value-4242';

describe('MCP tools in a real turn', () => {
  it("lists a user server's tool as mcp__SERVER__TOOL, asks (medium despite readOnlyHint), calls it, answers, audits; the env secret is in no file in clear", async () => {
    const dataDir = (await tempDir('tandem-data-')).path;
    addUserServer({ dataDir, name: 'everything', command: process.execPath, args: [EVERYTHING, 'stdio'], env: { EVERYTHING_TOKEN: SECRET } });
    bed.server = await startTestServer({ env: bed.env(), dataDir });
    const { client, sessionId } = await driverSession(bed.server);
    bed.fake.enqueue({ toolCalls: [{ name: 'mcp__everything__echo', args: { message: 'hello over mcp' } }] }, { text: 'it echoed' });
    await client.ok('session:send', { sessionId, text: 'echo something' });

    const request = await nextEvent(client, 'permission_request');
    expect(request).toMatchObject({ tool: 'mcp__everything__echo', danger: 'medium', args: { message: 'hello over mcp' } });
    expect(toolNames(bed.fake.requests[0]!)).toContain('mcp__everything__echo');
    expect(toolNames(bed.fake.requests[0]!)).toContain('read_file');
    await client.ok('permission:respond', { sessionId, requestId: request.requestId, decision: 'allow_once' });
    const result = await nextEvent(client, 'tool_result');
    expect(result).toMatchObject({ tool: 'mcp__everything__echo', isError: false, output: expect.stringContaining('hello over mcp') });
    await nextEvent(client, 'turn_done');
    const { records } = await client.ok('audit:query', { sessionId });
    expect(records).toEqual([expect.objectContaining({ tool: 'mcp__everything__echo', decision: 'allow_once', decidedBy: 'alice', isError: false })]);
    const { servers } = await client.ok('mcp:list', { sessionId });
    expect(servers).toEqual([
      expect.objectContaining({ name: 'everything', scope: 'user', status: 'connected', tools: expect.arrayContaining(['mcp__everything__echo']) }),
    ]);

    await bed.server.stop();
    bed.server = undefined;
    expect(readFileSync(join(dataDir, 'mcp.json'), 'utf8')).toContain('${secret:mcp/everything/env/EVERYTHING_TOKEN}');
    expect(filesContaining(dataDir, SECRET)).toEqual([]);
  });

  it('a denied call never reaches the server; an allowed one does', async () => {
    const dataDir = (await tempDir('tandem-data-')).path;
    const graph = join(dataDir, 'graph.jsonl');
    writeMcpJson(join(dataDir, 'mcp.json'), { memory: { command: process.execPath, args: [MEMORY], env: { MEMORY_FILE_PATH: graph } } });
    bed.server = await startTestServer({ env: bed.env(), dataDir });
    const { client, sessionId } = await driverSession(bed.server);
    const create = {
      name: 'mcp__memory__create_entities',
      args: { entities: [{ name: 'Ada', entityType: 'person', observations: ['wrote the first program'] }] },
    };
    bed.fake.enqueue({ toolCalls: [create] }, { text: 'denied, fine' }, { toolCalls: [create] }, { text: 'stored' });
    await client.ok('session:send', { sessionId, text: 'remember Ada' });
    const first = await nextEvent(client, 'permission_request');
    await client.ok('permission:respond', { sessionId, requestId: first.requestId, decision: 'deny_once' });
    expect(await nextEvent(client, 'tool_result')).toMatchObject({ isError: true, output: expect.stringContaining('denied') });
    const done = await nextEvent(client, 'turn_done');
    expect(existsSync(graph)).toBe(false);

    await client.ok('session:send', { sessionId, text: 'now do remember Ada' });
    const second = await nextEvent(client, 'permission_request', done.seq);
    await client.ok('permission:respond', { sessionId, requestId: second.requestId, decision: 'allow_once' });
    expect(await nextEvent(client, 'tool_result', done.seq)).toMatchObject({ isError: false });
    await nextEvent(client, 'turn_done', done.seq);
    expect(readFileSync(graph, 'utf8')).toContain('Ada');
  });

  it('a server that exits mid-call is failed: the call is an error, its tools are gone from the next request with a notice, the turn goes on', async () => {
    const dataDir = (await tempDir('tandem-data-')).path;
    writeMcpJson(join(dataDir, 'mcp.json'), {
      crashy: { command: process.execPath, args: [CRASH_FIXTURE], danger: 'medium', tools: { crash: { danger: 'safe' } } },
    });
    bed.server = await startTestServer({ env: bed.env(), dataDir });
    const { client, sessionId } = await driverSession(bed.server);
    bed.fake.enqueue({ toolCalls: [{ name: 'mcp__crashy__crash', args: {} }] }, { text: 'the server is gone, carrying on' });
    await client.ok('session:send', { sessionId, text: 'crash it' });
    const call = await nextEvent(client, 'tool_call');
    expect(call).toMatchObject({ tool: 'mcp__crashy__crash', danger: 'safe' });
    expect(await nextEvent(client, 'tool_result')).toMatchObject({ tool: 'mcp__crashy__crash', isError: true });
    expect(await nextEvent(client, 'turn_done')).toMatchObject({ outcome: 'answered' });

    expect(toolNames(bed.fake.requests[0]!)).toEqual(expect.arrayContaining(['mcp__crashy__crash', 'mcp__crashy__ping']));
    const next = bed.fake.requests[1]!;
    expect(toolNames(next).filter((n) => n.startsWith('mcp__'))).toEqual([]);
    expect(systemOf(next)).toMatch(/MCP server "crashy" failed/);
    const { servers } = await client.ok('mcp:list', { sessionId });
    expect(servers).toEqual([expect.objectContaining({ name: 'crashy', status: 'failed', reason: expect.stringMatching(/closed the connection/), tools: [] })]);
    expect(client.events.some((e) => e.type === 'permission_request')).toBe(false);
  });

  it('past the schema budget, MCP tools are listed by name and loaded on demand with load_tool, then called', async () => {
    const dataDir = (await tempDir('tandem-data-')).path;
    writeMcpJson(join(dataDir, 'mcp.json'), { everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] } });
    bed.server = await startTestServer({ env: bed.env(), dataDir, mcpToolSchemaBudgetTokens: 50 });
    const { client, sessionId } = await driverSession(bed.server);
    client.approveAll(sessionId);
    bed.fake.enqueue(
      { toolCalls: [{ name: 'search_tools', args: { query: 'echo' } }] },
      { toolCalls: [{ name: 'load_tool', args: { name: 'mcp__everything__echo' } }] },
      { toolCalls: [{ name: 'mcp__everything__echo', args: { message: 'loaded late' } }] },
      { text: 'done' },
    );
    await client.ok('session:send', { sessionId, text: 'use echo' });
    await nextEvent(client, 'turn_done');
    const [first, second, third] = bed.fake.requests;
    expect(toolNames(first!)).toEqual(expect.arrayContaining(['search_tools', 'load_tool']));
    expect(toolNames(first!).filter((n) => n.startsWith('mcp__'))).toEqual([]);
    expect(systemOf(first!)).toContain('- mcp__everything__echo: Echoes back the input string');
    expect(toolNames(second!)).not.toContain('mcp__everything__echo');
    expect(toolNames(third!)).toContain('mcp__everything__echo');
    const results = client.events.filter((e) => e.type === 'tool_result');
    expect(results.map((r) => [r.tool, r.isError])).toEqual([
      ['search_tools', false],
      ['load_tool', false],
      ['mcp__everything__echo', false],
    ]);
    expect(results[0]).toMatchObject({ output: expect.stringContaining('mcp__everything__echo') });
    expect(results[2]).toMatchObject({ output: expect.stringContaining('loaded late') });
  });

  it('a server that never answers initialize fails with a timeout; the turn runs without it', async () => {
    const dataDir = (await tempDir('tandem-data-')).path;
    writeMcpJson(join(dataDir, 'mcp.json'), { silent: { command: process.execPath, args: ['-e', 'process.stdin.resume()'], startupTimeoutMs: 300 } });
    bed.server = await startTestServer({ env: bed.env(), dataDir });
    const { client, sessionId } = await driverSession(bed.server);
    bed.fake.enqueue({ text: 'no tools from silent' });
    await client.ok('session:send', { sessionId, text: 'hello' });
    expect(await nextEvent(client, 'turn_done')).toMatchObject({ outcome: 'answered' });
    expect(systemOf(bed.fake.requests[0]!)).toMatch(/MCP server "silent" failed \(did not answer initialize/);
    const { servers } = await client.ok('mcp:list', { sessionId });
    expect(servers).toEqual([expect.objectContaining({ name: 'silent', status: 'failed', reason: expect.stringContaining('did not answer initialize') })]);
  });
});
