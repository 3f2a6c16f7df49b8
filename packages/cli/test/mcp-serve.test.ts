import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { SessionEvent } from '@tandem/shared';
import { TandemClient } from '@tandem/tui';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT_MAIN } from './built-cli.js';
import { type ServerFixture, startServerFixture } from './server-fixture.js';

// `tandem mcp serve` driven by the official MCP SDK client over stdio, as Claude Code or Codex
// would run it, against a real server whose model is the scripted fake.

let fixture: ServerFixture;
let client: Client;
let transport: StdioClientTransport;
let stderr = '';

beforeAll(async () => {
  fixture = await startServerFixture('mcp serve');
  transport = new StdioClientTransport({
    command: process.execPath,
    args: [BUILT_MAIN, 'mcp', 'serve', '--url', fixture.server.url, '--token', fixture.tokens.control, '--cwd', fixture.project.path],
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NO_COLOR: '1' },
    cwd: fixture.project.path,
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  client = new Client({ name: 'mcp-serve-test', version: '1.0.0' });
  await client.connect(transport);
});
afterAll(async () => {
  await client?.close();
  await fixture?.close();
});

type RunResult = {
  type: string;
  sessionId: string;
  turnId: string;
  result: string;
  isError: boolean;
  iterations: number;
  stopReason: string;
  usage: { inputTokens: number; outputTokens: number; cacheReadTokens?: number; cacheWriteTokens?: number; costUsd?: number };
};

describe('tandem mcp serve', () => {
  it('offers tandem_run, tandem_sessions and tandem_events', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(['tandem_events', 'tandem_run', 'tandem_sessions']);
    const run = tools.find((tool) => tool.name === 'tandem_run')!;
    expect(Object.keys(run.inputSchema.properties ?? {}).sort()).toEqual(['approvalMode', 'cwd', 'prompt', 'sessionId']);
    expect(run.inputSchema.required).toEqual(['prompt']);
  });

  it('tandem_run: the final answer as text, the result object as structured content; the session is listed and readable', async () => {
    fixture.fake.enqueue({ text: 'Handed back: 7 files.' });
    const called = await client.callTool({ name: 'tandem_run', arguments: { prompt: 'count the files' } });
    expect(called.isError).toBeFalsy();
    expect(called.content).toEqual([{ type: 'text', text: 'Handed back: 7 files.' }]);
    const result = called.structuredContent as RunResult;
    expect(result).toMatchObject({ type: 'result', result: 'Handed back: 7 files.', isError: false, iterations: 1, stopReason: 'answered' });

    const listed = await client.callTool({ name: 'tandem_sessions', arguments: {} });
    const sessions = (listed.structuredContent as { sessions: Array<{ id: string; cwd: string }> }).sessions;
    expect(sessions.find((s) => s.id === result.sessionId)?.cwd).toBe(fixture.project.path);

    const read = await client.callTool({ name: 'tandem_events', arguments: { sessionId: result.sessionId } });
    const page = read.structuredContent as { events: SessionEvent[]; hasMore: boolean; nextAfterSeq: number; lastSeq: number };
    const types = page.events.map((event) => event.type);
    expect(types).toContain('user_message');
    expect(types).toContain('turn_done');
    expect(page.hasMore).toBe(false);
    expect(page.nextAfterSeq).toBe(page.lastSeq);
    const after = await client.callTool({ name: 'tandem_events', arguments: { sessionId: result.sessionId, afterSeq: page.nextAfterSeq } });
    expect((after.structuredContent as { events: SessionEvent[] }).events).toEqual([]);
  });

  it('tandem_run with sessionId continues that session; approvalMode full-auto runs its command without asking', async () => {
    fixture.fake.enqueue({ text: 'First.' });
    const first = (await client.callTool({ name: 'tandem_run', arguments: { prompt: 'start' } })).structuredContent as RunResult;
    fixture.fake.enqueue({ toolCalls: [{ name: 'run_command', args: { command: 'touch from-mcp.txt' } }] }, { text: 'Made from MCP.' });
    const second = await client.callTool({
      name: 'tandem_run',
      arguments: { prompt: 'make the file', sessionId: first.sessionId, approvalMode: 'full-auto' },
    });
    expect((second.structuredContent as RunResult).sessionId).toBe(first.sessionId);
    // The continued session's requests start with the bytes of the first run's: read from the cache, and priced.
    const { usage } = second.structuredContent as RunResult;
    expect(usage.cacheReadTokens).toBeGreaterThan(1024);
    expect(usage.cacheReadTokens).toBeLessThan(usage.inputTokens);
    expect(usage.costUsd).toBeGreaterThan(0);
    expect(second.content).toEqual([{ type: 'text', text: 'Made from MCP.' }]);
    expect(existsSync(join(fixture.project.path, 'from-mcp.txt'))).toBe(true);
  });

  it('tandem_run in ask mode waits for a person, who approves it from a terminal client', async () => {
    fixture.fake.enqueue({ toolCalls: [{ name: 'run_command', args: { command: 'touch approved-over-mcp.txt' } }] }, { text: 'Approved over MCP.' });
    const person = new TandemClient(fixture.server.url, { token: fixture.tokens.control, name: 'carol' });
    try {
      await person.ready();
      // tandem_run reports its progress (with a progress token): the session, then the question.
      let sessionId = '';
      let waiting!: () => void;
      const asking = new Promise<void>((resolve) => (waiting = resolve));
      const call = client.callTool({ name: 'tandem_run', arguments: { prompt: 'make the approved file' } }, undefined, {
        onprogress: (progress) => {
          const named = /session ([0-9a-f-]{36})/.exec(progress.message ?? '');
          if (named) sessionId = named[1]!;
          if (progress.message?.startsWith('waiting for permission: run_command touch approved-over-mcp.txt')) waiting();
        },
      });
      await asking;
      const requests: string[] = [];
      person.subscribe((signal) => {
        if (signal.kind === 'event' && signal.event.type === 'permission_request') requests.push(signal.event.requestId);
      });
      await person.attach(sessionId, 'driver');
      await person.request('permission:respond', { sessionId, requestId: requests[0]!, decision: 'allow_once' });
      const called = await call;
      expect(called.content).toEqual([{ type: 'text', text: 'Approved over MCP.' }]);
      expect(existsSync(join(fixture.project.path, 'approved-over-mcp.txt'))).toBe(true);
    } finally {
      person.close();
    }
  });

  it('a client that goes away while tandem_run runs: the turn is cancelled', async () => {
    const second = new StdioClientTransport({
      command: process.execPath,
      args: [BUILT_MAIN, 'mcp', 'serve', '--url', fixture.server.url, '--token', fixture.tokens.control, '--cwd', fixture.project.path],
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NO_COLOR: '1' },
      cwd: fixture.project.path,
      stderr: 'pipe',
    });
    const leaving = new Client({ name: 'leaving-client', version: '1.0.0' });
    await leaving.connect(second);
    fixture.fake.enqueue({ hang: true });
    let sessionId = '';
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    void leaving
      .callTool({ name: 'tandem_run', arguments: { prompt: 'take forever' } }, undefined, {
        onprogress: (progress) => {
          const named = /session ([0-9a-f-]{36})/.exec(progress.message ?? '');
          if (named) {
            sessionId = named[1]!;
            started();
          }
        },
      })
      .catch(() => undefined);
    await running;
    while (fixture.fake.pending() > 0) await new Promise((resolve) => setImmediate(resolve));
    const watcher = new TandemClient(fixture.server.url, { token: fixture.tokens.view, name: 'watcher' });
    try {
      await watcher.ready();
      const cancelled = new Promise<void>((resolve) =>
        watcher.subscribe((signal) => {
          if (signal.kind === 'event' && signal.event.type === 'turn_cancelled') resolve();
        }),
      );
      await watcher.attach(sessionId, 'viewer');
      await leaving.close();
      await cancelled;
    } finally {
      watcher.close();
    }
  });

  it('an unknown session is an error result naming it, not a crash', async () => {
    const called = await client.callTool({ name: 'tandem_run', arguments: { prompt: 'hi', sessionId: 'no-such-session' } });
    expect(called.isError).toBe(true);
    expect((called.content as Array<{ text: string }>)[0]!.text).toContain('no session "no-such-session"');
    const events = await client.callTool({ name: 'tandem_events', arguments: { sessionId: 'no-such-session' } });
    expect(events.isError).toBe(true);
    expect(stderr).not.toContain('Error');
  });
});
