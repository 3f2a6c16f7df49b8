import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { memoryDirFor } from '@tandem/core';
import type { SessionEvent } from '@tandem/shared';
import type { FakeReply, FakeRequest } from '@tandem/testkit';
import { driverSession, EVERYTHING, nextEvent, writeMcpJson } from './mcp-harness.js';
import { fakeModelBed, startTestServer, tempDir } from './server-harness.js';

/**
 * The reverse bridge end to end: the commander dispatches an external agent (the fake agent
 * CLI), which starts `tandem bridge` (the real CLI, from source) as an MCP server with the
 * official MCP SDK client and calls Tandem's skills, a connector (the MCP reference server
 * "everything") and memory; every call passes the session's gate and audit as that agent.
 */
const bed = fakeModelBed();
const FAKE_AGENT = fileURLToPath(new URL('./fixtures/fake-external-agent.mjs', import.meta.url));
const REPO = fileURLToPath(new URL('../../../', import.meta.url));
/** `tandem bridge` from the repository's sources (no build needed). */
const BRIDGE_COMMAND = [
  process.execPath,
  '--conditions=tandem-source',
  '--import',
  join(REPO, 'node_modules/tsx/dist/loader.mjs'),
  join(REPO, 'packages/cli/src/main.ts'),
  'bridge',
];

const toolResults = (req: FakeRequest): string[] =>
  ((req.body?.messages ?? []) as Array<{ role: string; content?: unknown }>).flatMap((m) => (m.role === 'tool' ? [String(m.content)] : []));

function runRelay(env: Record<string, string>): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    const [command, ...args] = BRIDGE_COMMAND as [string, ...string[]];
    const child = execFile(command, args, { cwd: REPO, env: { PATH: process.env.PATH ?? '', ...env }, timeout: 60_000 }, (err, _stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stderr });
    });
    child.stdin?.end();
  });
}

describe('the reverse bridge', () => {
  it("lets an external agent list, read and run Tandem's skills, call its MCP servers and search its memory, through the session's gate and audit", async () => {
    const dataDir = (await tempDir('tandem-data-')).path;
    bed.server = await startTestServer({ env: bed.env(), dataDir });
    const ws = bed.server.workspace.path;
    const skills = join(ws, '.tandem', 'skills');
    mkdirSync(join(skills, 'notes'), { recursive: true });
    writeFileSync(join(skills, 'notes', 'SKILL.md'), '---\nname: notes\ndescription: How we write notes.\n---\nNOTES-BODY: one line per fact.\n');
    mkdirSync(join(skills, 'hello'), { recursive: true });
    writeFileSync(
      join(skills, 'hello', 'SKILL.md'),
      `---\nname: hello\ndescription: Says hello.\ncommand: ${JSON.stringify(`node -e "console.log('skill-said', process.argv.slice(1).join(' '))"`)}\n---\nRun it.\n`,
    );
    writeMcpJson(join(dataDir, 'mcp.json'), { everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] } });
    const memory = await memoryDirFor(dataDir, ws);
    mkdirSync(memory, { recursive: true });
    writeFileSync(join(memory, 'HISTORY.md'), '[2025-01-02 10:00] Named the release train ZEBRA-42.\n');
    const agents = join(ws, '.tandem', 'agents');
    mkdirSync(agents, { recursive: true });
    writeFileSync(
      join(agents, 'helper.md'),
      `---\nname: helper\ndescription: A fake agent CLI that uses the bridge.\ncommand: ${JSON.stringify(`node ${FAKE_AGENT} --mode bridge --bridge-cmd '${JSON.stringify(BRIDGE_COMMAND)}' {task}`)}\n---\n`,
    );
    const plan = [
      { tool: 'skills_list' },
      { tool: 'skill_read', arguments: { name: 'notes' } },
      { tool: 'skill_run', arguments: { name: 'hello', arguments: 'there' } },
      { tool: 'connector_call', arguments: { server: 'everything', tool: 'echo', arguments: { message: 'via-bridge' } } },
      { tool: 'connector_call', arguments: { server: 'everything', tool: 'echo', arguments: { message: 'second' } } },
      { tool: 'memory_search', arguments: { query: 'ZEBRA-42' } },
      { tool: 'skill_run', arguments: { name: 'no-such-skill' } },
    ];
    bed.fake.setHandler((req): FakeReply => {
      const results = toolResults(req);
      if (results.length === 0) return { toolCalls: [{ name: 'dispatch_to', args: { agent: 'helper', task: JSON.stringify(plan) } }] };
      return { text: 'done' };
    });
    const { client, sessionId } = await driverSession(bed.server);
    client.socket.on('session:event', (event: SessionEvent) => {
      if (event.type !== 'permission_request') return;
      const decision = event.tool === 'connector_call' ? 'allow_forever' : 'allow_once';
      void client.request('permission:respond', { sessionId, requestId: event.requestId, decision });
    });

    await client.ok('session:send', { sessionId, text: 'use the bridge' });
    const done = await nextEvent(client, 'agent_done');
    expect(done).toMatchObject({ agent: 'helper', isError: false });
    const out = done.result;
    expect(out).toContain('TOOLS connector_call,memory_search,skill_read,skill_run,skills_list');
    expect(out).toMatch(/RESULT skills_list: .*- hello \(project \.tandem\/skills, runnable with skill_run\): Says hello\..*- notes/);
    expect(out).toMatch(/RESULT skill_read: .*NOTES-BODY: one line per fact\./);
    expect(out).toMatch(/RESULT skill_run: skill-said there/);
    expect(out).toMatch(/RESULT connector_call: .*Echo: via-bridge/);
    expect(out).toMatch(/RESULT connector_call: .*Echo: second/);
    expect(out).toMatch(/RESULT memory_search: .*ZEBRA-42/);
    expect(out).toMatch(/RESULT skill_run \(error\): Unknown tool "skill__no-such-skill"/);

    // Every bridge call was a call of the session, made by the agent, through the gate.
    const calls = client.events.filter((e) => e.type === 'tool_call' && e.agent === 'helper').map((e) => e.type === 'tool_call' && e.tool);
    expect(calls).toEqual([
      'run_command',
      'skills_list',
      'read_skill',
      'skill__hello',
      'connector_call',
      'connector_call',
      'memory_search',
      'skill__no-such-skill',
    ]);
    const asked = client.events.filter((e) => e.type === 'permission_request');
    expect(asked.map((e) => e.type === 'permission_request' && [e.tool, e.agent])).toEqual([
      ['run_command', 'helper'],
      ['skill__hello', 'helper'],
      ['connector_call', 'helper'],
    ]);
    // The connector question is about the pair (agent, server), with "always" for it.
    expect(asked[2]).toMatchObject({ scopes: ['agent helper → MCP server everything'], args: { agent: 'helper', server: 'everything', tool: 'echo' } });
    const { records } = await client.ok('audit:query', { sessionId });
    const connector = records.filter((r) => r.tool === 'connector_call');
    expect(connector.map((r) => [r.agent, r.decision, r.outcome])).toEqual([
      ['helper', 'allow_forever', 'ok'],
      ['helper', 'stored_rule', 'ok'],
    ]);
    const { permissions } = await client.ok('permissions:list', {});
    expect(permissions).toEqual([expect.objectContaining({ tool: 'connector_call', match: 'exact', pattern: 'helper/everything', effect: 'allow' })]);

    // The run is over: its token no longer opens anything.
    const bridge = /BRIDGE=(\S+)/.exec(out)?.[1];
    expect(bridge).toMatch(/\.sock#[0-9a-f]{64}$/);
    const after = await runRelay({ TANDEM_BRIDGE: bridge! });
    expect(after.code).toBe(1);
    expect(after.stderr).toContain('the bridge of this run is closed');
    const unset = await runRelay({});
    expect(unset.code).toBe(2);
    expect(unset.stderr).toContain('TANDEM_BRIDGE is not set');
  });
});
