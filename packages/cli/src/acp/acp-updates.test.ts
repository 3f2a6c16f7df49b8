import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SessionEvent } from '@tandem/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { promptText } from './acp-prompt.js';
import { AcpEventTranslator } from './acp-updates.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tandem-acp-updates-'));
  await writeFile(join(dir, 'a.txt'), 'one\ntwo\nthree\n');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

let seq = 0;
const at = (body: Record<string, unknown>): SessionEvent => ({ sessionId: 's', seq: ++seq, ts: '2026-01-01T00:00:00.000Z', ...body }) as SessionEvent;

/** What edit_file declares on its tool_call: which arguments hold the file and the change. */
const EDIT_FILE_ARGS = { path: 'path', line: 'start_line', oldText: 'old_string', newText: 'new_string' };
/** An edit of a.txt (`two` to `TWO`), as the server announces it. */
const EDIT_CALL = {
  type: 'tool_call',
  turnId: 't',
  iteration: 1,
  callId: 'c1',
  tool: 'edit_file',
  kind: 'edit',
  summary: 'a.txt',
  file: EDIT_FILE_ARGS,
  args: { path: 'a.txt', old_string: 'two', new_string: 'TWO' },
  danger: 'medium',
};

describe('AcpEventTranslator', () => {
  it('streams text, and sends from assistant_text only what was not streamed (all of it in a replay)', async () => {
    const live = new AcpEventTranslator({ cwd: dir, localFiles: true, by: 'me' });
    expect(await live.updates(at({ type: 'text_delta', turnId: 't', delta: 'Hel' }), false)).toEqual([
      { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Hel' } },
    ]);
    expect(await live.updates(at({ type: 'assistant_text', turnId: 't', iteration: 1, text: 'Hello.' }), false)).toEqual([
      { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'lo.' } },
    ]);
    expect(await live.updates(at({ type: 'text_delta', turnId: 't', delta: 'worker', taskId: 'w' }), false)).toEqual([]);
    const replay = new AcpEventTranslator({ cwd: dir, localFiles: true, by: 'me' });
    expect(await replay.updates(at({ type: 'assistant_text', turnId: 't', iteration: 1, text: 'Hello.' }), true)).toEqual([
      { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Hello.' } },
    ]);
  });

  it("echoes other people's messages, not the editor's own (except in a replay)", async () => {
    const t = new AcpEventTranslator({ cwd: dir, localFiles: true, by: 'me' });
    expect(await t.updates(at({ type: 'user_message', text: 'mine', by: 'me', mode: 'turn' }), false)).toEqual([]);
    expect(await t.updates(at({ type: 'user_message', text: 'theirs', by: 'tom', mode: 'turn' }), false)).toEqual([
      { sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'theirs' } },
    ]);
    expect(await t.updates(at({ type: 'user_message', text: 'mine', by: 'me', mode: 'turn' }), true)).toHaveLength(1);
  });

  it('an edit that asks shows the whole file before and after; a command shows its output while it runs', async () => {
    const t = new AcpEventTranslator({ cwd: dir, localFiles: true, by: 'me' });
    const [call] = await t.updates(at(EDIT_CALL), false);
    expect(call).toMatchObject({
      sessionUpdate: 'tool_call',
      kind: 'edit',
      status: 'pending',
      content: [{ type: 'diff', path: join(dir, 'a.txt'), oldText: 'one\ntwo\nthree\n', newText: 'one\nTWO\nthree\n' }],
      locations: [{ path: join(dir, 'a.txt') }],
    });
    expect(t.describeCall('c1')?.title).toBe('edit_file a.txt');

    const [command, running] = await t.updates(
      at({
        type: 'tool_call',
        turnId: 't',
        iteration: 1,
        callId: 'c2',
        tool: 'run_command',
        kind: 'execute',
        summary: 'ls',
        args: { command: 'ls' },
        danger: 'safe',
        reason: 'read-only command: ls',
      }),
      false,
    );
    expect(command).toMatchObject({ kind: 'execute', title: 'ls', status: 'pending' });
    expect(running).toEqual({ sessionUpdate: 'tool_call_update', toolCallId: 'c2', status: 'in_progress' });
    await t.updates(at({ type: 'command_output', callId: 'c2', data: '\u001b[1ma.txt\u001b[0m\r\n' }), false);
    expect(t.outputUpdate('c2')).toEqual([
      {
        sessionUpdate: 'tool_call_update',
        toolCallId: 'c2',
        status: 'in_progress',
        content: [{ type: 'content', content: { type: 'text', text: 'a.txt\n' } }],
      },
    ]);
    const [done] = await t.updates(
      at({ type: 'tool_result', turnId: 't', callId: 'c2', tool: 'run_command', isError: false, output: 'a.txt', durationMs: 3 }),
      false,
    );
    expect(done).toMatchObject({ status: 'completed', content: [{ type: 'content', content: { type: 'text', text: 'a.txt' } }] });
  });

  it('a call that runs at once is not read (it may have changed the file already): the replaced text alone', async () => {
    const t = new AcpEventTranslator({ cwd: dir, localFiles: true, by: 'me' });
    const [call] = await t.updates(at({ ...EDIT_CALL, reason: 'auto-edit mode: a file edit inside the workspace' }), false);
    expect(call).toMatchObject({ content: [{ type: 'diff', oldText: 'two', newText: 'TWO' }] });
  });
});

describe('promptText', () => {
  it('joins text, names linked files, fences embedded text', () => {
    expect(
      promptText([
        { type: 'text', text: 'look at' },
        { type: 'resource_link', uri: 'file:///w/a%20b.ts', name: 'a b.ts' },
        { type: 'resource', resource: { uri: 'file:///w/c.ts', text: 'const c = 1;' } },
      ]),
    ).toBe('look at\n\n@/w/a b.ts\n\n/w/c.ts:\n```\nconst c = 1;\n```');
  });
});
