import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import * as acp from '@agentclientprotocol/sdk';
import type { SessionEvent } from '@tandem/shared';
import { TandemClient } from '@tandem/tui';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT_MAIN } from './built-cli.js';
import { tandemShellLine } from './cli-runner.js';
import { type ServerFixture, startServerFixture } from './server-fixture.js';
import { Tmux } from './tmux.js';

// `tandem acp` driven by the SDK's own client API (the editor side of @agentclientprotocol/sdk),
// against a real server whose model is the scripted fake; a socket.io client plays the person
// watching the same session from a terminal.

type PermissionHandler = (params: acp.RequestPermissionRequest, signal: AbortSignal) => Promise<acp.RequestPermissionResponse>;

/** One editor: the `tandem acp` process and the ACP client connected to it over its stdio. */
class Editor {
  readonly updates: acp.SessionNotification[] = [];
  readonly child: ChildProcess;
  readonly agent: acp.ClientContext;
  stderr = '';
  onPermission: PermissionHandler = async () => ({ outcome: { outcome: 'cancelled' } });
  private readonly waiters = new Set<() => void>();

  constructor(fixture: ServerFixture) {
    this.child = spawn(
      process.execPath,
      [BUILT_MAIN, 'acp', '--url', fixture.server.url, '--token', fixture.tokens.control, '--cwd', fixture.project.path, '--name', 'zed-user'],
      { cwd: fixture.project.path, env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1' }, stdio: ['pipe', 'pipe', 'pipe'] },
    );
    this.child.stderr!.on('data', (chunk: Buffer) => {
      this.stderr += chunk.toString();
    });
    const app = acp
      .client({ name: 'test-editor' })
      .onNotification('session/update', ({ params }) => {
        this.updates.push(params);
        for (const wake of [...this.waiters]) wake();
      })
      .onRequest('session/request_permission', ({ params, signal }) => this.onPermission(params, signal));
    const connection = app.connect(acp.ndJsonStream(Writable.toWeb(this.child.stdin!), Readable.toWeb(this.child.stdout!) as ReadableStream<Uint8Array>));
    this.agent = connection.agent;
  }

  /** Resolves with the first update (after `from`) that passes `test`, waiting for it to arrive. */
  async update(test: (update: acp.SessionUpdate) => boolean, from = 0): Promise<acp.SessionUpdate> {
    for (;;) {
      const found = this.updates.slice(from).find((n) => test(n.update));
      if (found) return found.update;
      await new Promise<void>((resolve) => this.waiters.add(resolve));
      this.waiters.clear();
    }
  }

  text(from = 0): string {
    return this.updates
      .slice(from)
      .map((n) => n.update)
      .filter((u): u is Extract<acp.SessionUpdate, { sessionUpdate: 'agent_message_chunk' }> => u.sessionUpdate === 'agent_message_chunk')
      .map((u) => (u.content.type === 'text' ? u.content.text : ''))
      .join('');
  }

  close(): void {
    this.child.stdin!.end();
    this.child.kill();
  }
}

/** A person's socket.io client on the same session (as a TUI is). */
class Watcher {
  readonly events: SessionEvent[] = [];
  private readonly waiters = new Set<() => void>();
  readonly client: TandemClient;

  constructor(fixture: ServerFixture, name: string) {
    this.client = new TandemClient(fixture.server.url, { token: fixture.tokens.control, name });
    this.client.subscribe((signal) => {
      if (signal.kind !== 'event') return;
      this.events.push(signal.event);
      for (const wake of [...this.waiters]) wake();
    });
  }

  async attach(sessionId: string): Promise<void> {
    await this.client.ready();
    await this.client.attach(sessionId, 'driver');
  }

  async event<T extends SessionEvent['type']>(type: T, test: (e: Extract<SessionEvent, { type: T }>) => boolean = () => true, from = 0) {
    for (;;) {
      const found = this.events
        .slice(from)
        .find((e): e is Extract<SessionEvent, { type: T }> => e.type === type && test(e as Extract<SessionEvent, { type: T }>));
      if (found) return found;
      await new Promise<void>((resolve) => this.waiters.add(resolve));
      this.waiters.clear();
    }
  }
}

let fixture: ServerFixture;
let editor: Editor;
let watcher: Watcher;
let sessionId: string;

beforeAll(async () => {
  fixture = await startServerFixture('acp');
  editor = new Editor(fixture);
  watcher = new Watcher(fixture, 'terminal-tom');
});
afterAll(async () => {
  editor?.close();
  watcher?.client.close();
  await fixture?.close();
});

describe('tandem acp', () => {
  it('initialize: protocol version 1, loadSession; session/new is a new Tandem session with the approval modes', async () => {
    const init = await editor.agent.request('initialize', { protocolVersion: 1, clientCapabilities: {}, clientInfo: { name: 'test-editor', version: '1' } });
    expect(init.protocolVersion).toBe(1);
    expect(init.agentCapabilities?.loadSession).toBe(true);
    const created = await editor.agent.request('session/new', { cwd: fixture.project.path, mcpServers: [] });
    sessionId = created.sessionId;
    expect(created.modes?.currentModeId).toBe('ask');
    expect(created.modes?.availableModes.map((m) => m.id)).toEqual(['ask', 'auto-edit', 'read-only', 'full-auto']);
    await watcher.attach(sessionId);
    const { sessions } = await watcher.client.request('session:list', {});
    expect(sessions.find((s) => s.id === sessionId)?.cwd).toBe(fixture.project.path);
  });

  it('session/prompt: streamed text and a tool call pending → in_progress → completed; a terminal watching sees the same turn', async () => {
    fixture.fake.enqueue({ toolCalls: [{ name: 'read_file', args: { path: 'README.md' } }] }, { chunks: ['The project ', 'is a demo.'] });
    const from = editor.updates.length;
    const response = await editor.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'what is this project?' }] });
    expect(response.stopReason).toBe('end_turn');
    expect(editor.text(from)).toBe('The project is a demo.');
    const call = (await editor.update((u) => u.sessionUpdate === 'tool_call', from)) as Extract<acp.SessionUpdate, { sessionUpdate: 'tool_call' }>;
    expect(call).toMatchObject({
      kind: 'read',
      status: 'pending',
      title: 'read_file README.md',
      locations: [{ path: join(fixture.project.path, 'README.md') }],
    });
    const statuses = editor.updates
      .slice(from)
      .map((n) => n.update)
      .filter((u) => u.sessionUpdate === 'tool_call_update' && u.toolCallId === call.toolCallId)
      .map((u) => (u as acp.ToolCallUpdate).status);
    expect(statuses).toEqual(['in_progress', 'completed']);
    // The person in the terminal saw the editor's message and the answer.
    await watcher.event('user_message', (e) => e.text === 'what is this project?' && e.by === 'zed-user (acp)');
    await watcher.event('assistant_text', (e) => e.text === 'The project is a demo.');
  });

  it('session/request_permission: the editor allows an edit and sees its diff', async () => {
    fixture.fake.enqueue({ toolCalls: [{ name: 'write_file', args: { path: 'notes.md', content: 'written from the editor\n' } }] }, { text: 'Wrote it.' });
    const asked: acp.RequestPermissionRequest[] = [];
    editor.onPermission = async (params) => {
      asked.push(params);
      return { outcome: { outcome: 'selected', optionId: 'allow_once' } };
    };
    const from = editor.updates.length;
    const response = await editor.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'write the notes' }] });
    expect(response.stopReason).toBe('end_turn');
    expect(asked).toHaveLength(1);
    expect(asked[0]!.options.map((o) => o.kind)).toEqual(['allow_once', 'allow_always', 'reject_once', 'reject_always']);
    expect(asked[0]!.toolCall.content).toEqual([
      { type: 'diff', path: join(fixture.project.path, 'notes.md'), oldText: null, newText: 'written from the editor\n' },
    ]);
    expect(readFileSync(join(fixture.project.path, 'notes.md'), 'utf8')).toBe('written from the editor\n');
    const done = editor.updates
      .slice(from)
      .map((n) => n.update)
      .find((u) => u.sessionUpdate === 'tool_call_update' && u.status === 'completed') as acp.ToolCallUpdate;
    expect(done.content?.[0]).toMatchObject({ type: 'diff', newText: 'written from the editor\n' });
    await watcher.event('permission_resolved', (e) => e.by === 'zed-user (acp)' && e.decision === 'allow_once');
  });

  it("whoever answers first decides: the terminal answers, the editor's question is cancelled", async () => {
    fixture.fake.enqueue({ toolCalls: [{ name: 'run_command', args: { command: 'touch by-terminal.txt' } }] }, { text: 'Done by the terminal.' });
    let cancelled = false;
    let editorAsked!: () => void;
    const asked = new Promise<void>((resolve) => (editorAsked = resolve));
    editor.onPermission = (_params, signal) =>
      new Promise((resolve) => {
        editorAsked();
        signal.addEventListener('abort', () => {
          cancelled = true;
          resolve({ outcome: { outcome: 'cancelled' } });
        });
      });
    const seen = watcher.events.length;
    const prompt = editor.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'touch it' }] });
    const request = await watcher.event('permission_request', () => true, seen);
    await asked;
    await watcher.client.request('permission:respond', { sessionId, requestId: request.requestId, decision: 'allow_once' });
    expect((await prompt).stopReason).toBe('end_turn');
    expect(cancelled).toBe(true);
    expect(existsSync(join(fixture.project.path, 'by-terminal.txt'))).toBe(true);
    await watcher.event('permission_resolved', (e) => e.requestId === request.requestId && e.by === 'terminal-tom');
  });

  it('session/cancel stops the turn: stopReason cancelled', async () => {
    fixture.fake.enqueue({ hang: true });
    const seen = watcher.events.length;
    const prompt = editor.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'take forever' }] });
    await watcher.event('turn_started', () => true, seen);
    // Cancel once the model request is out, or the hanging reply would stay queued for the next turn.
    while (fixture.fake.pending() > 0) await new Promise((resolve) => setImmediate(resolve));
    await editor.agent.notify('session/cancel', { sessionId });
    expect((await prompt).stopReason).toBe('cancelled');
    await watcher.event('turn_cancelled', () => true, seen);
  });

  it('session/set_mode sets the approval mode for everyone; the editor hears current_mode_update', async () => {
    const from = editor.updates.length;
    await editor.agent.request('session/set_mode', { sessionId, modeId: 'auto-edit' });
    await editor.update((u) => u.sessionUpdate === 'current_mode_update' && u.currentModeId === 'auto-edit', from);
    await watcher.event('session_configured', (e) => e.mode === 'auto-edit');
    await editor.agent.request('session/set_mode', { sessionId, modeId: 'ask' });
    await editor.update((u) => u.sessionUpdate === 'current_mode_update' && u.currentModeId === 'ask', from);
  });

  it('a turn a person starts from the terminal reaches the editor too (the same live session)', async () => {
    fixture.fake.enqueue({ text: 'Answer for the terminal.' });
    const from = editor.updates.length;
    await watcher.client.request('session:send', { sessionId, text: 'a question from the terminal' });
    await editor.update(
      (u) => u.sessionUpdate === 'user_message_chunk' && u.content.type === 'text' && u.content.text === 'a question from the terminal',
      from,
    );
    await editor.update((u) => u.sessionUpdate === 'agent_message_chunk' && u.content.type === 'text' && u.content.text.includes('terminal.'), from);
    await watcher.event(
      'turn_done',
      () => true,
      watcher.events.findIndex((e) => e.type === 'user_message' && e.text === 'a question from the terminal'),
    );
  });

  it("the editor's turns and the terminal's share one frozen system prompt; session:usage counts every turn", async () => {
    // The session's requests carry its id as prompt_cache_key (OpenAI); other requests (titles) carry none.
    const requests = fixture.fake.requests.filter((r) => r.body?.prompt_cache_key === sessionId);
    expect(requests.length).toBeGreaterThanOrEqual(6);
    const systems = new Set(requests.map((r) => JSON.stringify(r.body.messages[0])));
    expect(systems.size).toBe(1);
    expect(requests[0]!.body.messages[0].role).toBe('system');
    expect(new Set(requests.map((r) => JSON.stringify(r.body.tools))).size).toBe(1);
    // Each request starts with the whole previous request's conversation (tools, system, messages),
    // except after the cancelled turn, whose message the conversation does not keep.
    for (let i = 1; i < requests.length; i++) {
      const before = requests[i - 1]!.body.messages as Array<{ content: unknown }>;
      if (before.at(-1)!.content === 'take forever') continue;
      expect(JSON.stringify((requests[i]!.body.messages as unknown[]).slice(0, before.length))).toBe(JSON.stringify(before));
    }
    const usageEvents = watcher.events.filter((e): e is Extract<SessionEvent, { type: 'usage' }> => e.type === 'usage');
    const { total } = await watcher.client.request('session:usage', { sessionId });
    expect(total.turns).toBe(usageEvents.length);
    expect(total.inputTokens).toBe(usageEvents.reduce((n, e) => n + e.inputTokens, 0));
    expect(total.cacheReadTokens).toBeGreaterThan(0);
    expect(total.costUsd).toBeGreaterThan(0);
  });

  it("a TUI attached to the session (a real terminal, tmux) shows the editor's turn as it happens", async () => {
    const tmux = new Tmux();
    try {
      tmux.start('tui', tandemShellLine(['attach', sessionId, '--url', fixture.server.url, '--token', fixture.tokens.view, '--viewer', '--name', 'tui-tina']));
      await tmux.waitFor('tui', (screen) => /viewer │ .*idle/.test(screen), 180_000);
      fixture.fake.enqueue({ chunks: ['Seen in ', 'the TUI.'] });
      const response = await editor.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'hello from the editor' }] });
      expect(response.stopReason).toBe('end_turn');
      await tmux.waitFor('tui', (screen) => screen.includes('hello from the editor') && screen.includes('Seen in the TUI.'));
    } finally {
      tmux.kill();
    }
  });

  it('session/load in another editor replays the history as session/update before it answers', async () => {
    const second = new Editor(fixture);
    try {
      await second.agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} });
      const loaded = await second.agent.request('session/load', { sessionId, cwd: fixture.project.path, mcpServers: [] });
      expect(loaded?.modes?.currentModeId).toBe('ask');
      const replay = second.updates.filter((n) => n.sessionId === sessionId).map((n) => n.update);
      const said = replay.filter((u) => u.sessionUpdate === 'user_message_chunk').map((u) => (u.content.type === 'text' ? u.content.text : ''));
      expect(said).toEqual(['what is this project?', 'write the notes', 'touch it', 'take forever', 'a question from the terminal', 'hello from the editor']);
      expect(second.text()).toContain('The project is a demo.');
      expect(second.text()).toContain('Wrote it.');
      const calls = replay.filter((u) => u.sessionUpdate === 'tool_call').map((u) => (u as acp.ToolCall).title);
      expect(calls).toEqual(['read_file README.md', 'write_file notes.md', 'touch by-terminal.txt']);
      expect(replay.filter((u) => u.sessionUpdate === 'tool_call_update' && u.status === 'completed')).toHaveLength(3);

      await expect(second.agent.request('session/load', { sessionId: 'no-such-session', cwd: fixture.project.path, mcpServers: [] })).rejects.toThrow(
        /not found/i,
      );
    } finally {
      second.close();
    }
  });
});
