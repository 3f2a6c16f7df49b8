import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FakeReply, FakeRequest } from '@tandem/testkit';
import { driverSession, nextEvent } from './mcp-harness.js';
import { fakeModelBed, startTestServer, tempDir } from './server-harness.js';

/**
 * The files people bring from Claude Code and codex, through real turns against the scripted
 * model: CLAUDE.md when there is no AGENTS.md, the user's own <data-dir>/AGENTS.md, nested
 * AGENTS.md / CLAUDE.md given with the first tool result in their folder, .claude/skills, and
 * .claude/agents in Claude Code's format (tool names mapped, model aliases resolved or warned).
 */
const bed = fakeModelBed();

function write(path: string, text: string): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
}

interface Wire {
  role: string;
  content?: unknown;
}
const messagesOf = (req: FakeRequest): Wire[] => (req.body?.messages ?? []) as Wire[];
/** The system prompt of either wire format (Anthropic's may come as blocks). */
function systemOf(req: FakeRequest): string {
  if (req.format === 'anthropic') {
    const system = req.body?.system;
    return typeof system === 'string' ? system : JSON.stringify(system ?? '');
  }
  return String(messagesOf(req).find((m) => m.role === 'system')?.content ?? '');
}
const toolNames = (req: FakeRequest): string[] =>
  ((req.body?.tools ?? []) as Array<{ function?: { name: string }; name?: string }>).map((t) => t.function?.name ?? t.name ?? '');

async function setup(env: Record<string, string> = {}) {
  const dataDir = (await tempDir('tandem-data-')).path;
  const home = (await tempDir('tandem-home-')).path;
  bed.server = await startTestServer({ env: { ...bed.env(), ...env }, dataDir, home });
  return { dataDir, home, ws: bed.server.workspace.path, server: bed.server };
}

describe('instruction files', () => {
  it('CLAUDE.md stands in for a missing AGENTS.md, <data-dir>/AGENTS.md adds the user’s own, nested files come with the first tool result in their folder', async () => {
    const { dataDir, ws, server } = await setup();
    write(join(ws, 'CLAUDE.md'), 'ROOT-CLAUDE-RULE: indent with tabs.\n');
    write(join(dataDir, 'AGENTS.md'), 'USER-RULE: answer in English.\n');
    write(join(ws, 'sub', 'AGENTS.md'), 'SUB-RULE: keep sub free of side effects.\n');
    write(join(ws, 'sub', 'CLAUDE.md'), 'SUB-CLAUDE: never read when AGENTS.md is there.\n');
    write(join(ws, 'sub', 'deep', 'CLAUDE.md'), 'DEEP-RULE: deep code is generated.\n');
    write(join(ws, 'sub', 'deep', 'x.txt'), 'x\n');
    write(join(ws, 'sub', 'deep', 'y.txt'), 'y\n');
    write(join(ws, '.claude', 'skills', 'howto', 'SKILL.md'), '---\nname: howto\ndescription: PROJECT-CLAUDE-SKILL how we release\n---\nSteps.\n');

    const { client, sessionId } = await driverSession(server);
    bed.fake.enqueue(
      { toolCalls: [{ name: 'read_file', args: { path: 'sub/deep/x.txt' } }] },
      { toolCalls: [{ name: 'read_file', args: { path: 'sub/deep/y.txt' } }] },
      { text: 'read both' },
    );
    await client.ok('session:send', { sessionId, text: 'read the files' });
    const first = await nextEvent(client, 'tool_result');
    const second = await nextEvent(client, 'tool_result', first.seq);
    await nextEvent(client, 'turn_done');

    const system = systemOf(bed.fake.requests[0]!);
    expect(system).toContain('Instructions from CLAUDE.md in the workspace');
    expect(system).toContain('ROOT-CLAUDE-RULE');
    expect(system).toContain('USER-RULE: answer in English.');
    expect(system).toContain('Subfolders may have their own AGENTS.md (or CLAUDE.md)');
    expect(system).toContain('PROJECT-CLAUDE-SKILL');
    expect(system).not.toContain('SUB-RULE');

    expect(first.output).toContain('[Instructions from sub/AGENTS.md: they apply to work under sub/');
    expect(first.output).toContain('SUB-RULE');
    expect(first.output).not.toContain('SUB-CLAUDE');
    expect(first.output).toContain('[Instructions from sub/deep/CLAUDE.md: they apply to work under sub/deep/');
    expect(first.output.indexOf('SUB-RULE')).toBeLessThan(first.output.indexOf('DEEP-RULE'));
    // Already in the conversation: the next call in the same folder does not repeat them.
    expect(second.output).not.toContain('[Instructions from');
    // The model got them with the tool result.
    expect(JSON.stringify(messagesOf(bed.fake.requests[1]!))).toContain('SUB-RULE');
  });
});

describe('.claude/agents in Claude Code’s format', () => {
  function claudeAgent(ws: string, file: string, frontmatter: string, body: string): void {
    write(join(ws, '.claude', 'agents', file), `---\n${frontmatter}\n---\n${body}\n`);
  }

  function commanderThenReviewer(reviewer: FakeRequest[]): void {
    bed.fake.setHandler((req): FakeReply => {
      if (systemOf(req).includes('ROLE-REVIEWER')) {
        reviewer.push(req);
        return { text: 'REVIEWED' };
      }
      const results = JSON.stringify(req.body?.messages ?? []);
      if (!results.includes('REVIEWED')) return { toolCalls: [{ name: 'dispatch_to', args: { agent: 'reviewer', task: 'review the diff' } }] };
      return { text: 'all reviewed' };
    });
  }

  it('maps the tool names, reports the ones Tandem lacks, and runs a model alias on the session’s model with a warning when its provider has none', async () => {
    const { ws, server } = await setup();
    claudeAgent(
      ws,
      'code-reviewer.md',
      'name: reviewer\ndescription: Reviews code for risks\ntools: Read, Grep, TodoWrite, Bash(git diff:*)\nmodel: sonnet\ncolor: blue',
      'ROLE-REVIEWER: you review.',
    );
    const reviewer: FakeRequest[] = [];
    commanderThenReviewer(reviewer);
    const { client, sessionId } = await driverSession(server);
    const { sessions } = await client.ok('session:list', {});
    expect(sessions.find((s) => s.id === sessionId)?.agents?.map((a) => a.name)).toEqual(['reviewer']);
    await client.ok('session:send', { sessionId, text: 'review please' });
    await nextEvent(client, 'turn_done', 0, (e) => !e.taskId);

    expect(reviewer).toHaveLength(1);
    expect(toolNames(reviewer[0]!).sort()).toEqual(['grep_files', 'read_file', 'run_command']);
    expect(reviewer[0]!.model).toBe('fake-model');
    const warning = await nextEvent(client, 'model_warning');
    expect(warning.message).toBe("agent reviewer asks for model sonnet; openai has no sonnet model, so it runs on the session's openai/fake-model");
  });

  it('runs model: sonnet on the sonnet of the session’s provider (Anthropic)', async () => {
    const { ws, server } = await setup({ ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: bed.fake.anthropicBaseURL });
    claudeAgent(ws, 'reviewer.md', 'name: reviewer\ndescription: Reviews code\nmodel: sonnet', 'ROLE-REVIEWER: you review.');
    const reviewer: FakeRequest[] = [];
    commanderThenReviewer(reviewer);
    const client = await server.connect('alice');
    const { session } = await client.ok('session:create', { model: 'anthropic/claude-haiku-4-5' });
    await client.ok('session:attach', { sessionId: session.id, role: 'driver' });
    await client.ok('session:send', { sessionId: session.id, text: 'review please' });
    await nextEvent(client, 'turn_done', 0, (e) => !e.taskId);
    expect(bed.fake.requests[0]!.model).toBe('claude-haiku-4-5');
    expect(reviewer.map((req) => req.model)).toEqual(['claude-sonnet-4-5']);
    expect(client.events.some((e) => e.type === 'model_warning' && e.message.includes('reviewer'))).toBe(false);
  });
});
