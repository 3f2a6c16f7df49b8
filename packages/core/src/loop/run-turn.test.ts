import { beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { FakeClock } from '@tandem/testkit';
import type { Message } from '@tandem/ai';
import type { ModelClient, ToolSpec } from '@tandem/ai';
import { ToolError, defineTool, type AnyTool, type ToolServices } from '../tools/define.js';
import type { ToolGate } from '../ports/tool-gate.js';
import { runTurn } from './run-turn.js';
import { CANCEL_NOTE, NOT_RUN_OUTPUT } from './turn-end.js';
import { anthropicClient, fakeModelServerPerTest, openaiClient } from '@tandem/ai/testing/fake-server';
import { collect, echoTool as echo, ofType, turnOptions, type TurnSetup } from './turn-harness.test-helper.js';
import type { SteeringMessage, TurnOptions } from './types.js';
import { assistantCalling, toolCallOf } from '@tandem/ai/testing/conversation-messages';

const fake = fakeModelServerPerTest();
let log: string[];
beforeEach(() => {
  log = [];
});

const openai = (): ModelClient => openaiClient(fake.server, 'fake-gpt');
const anthropic = (): ModelClient => anthropicClient(fake.server, 'fake-claude');

function waitAbortable(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(t), reject(new Error('aborted'))), { once: true });
  });
}

const sleepTool = defineTool({
  name: 'sleep',
  description: 'Waits, then answers its label.',
  schema: z.object({ ms: z.number(), label: z.string() }),
  danger: 'safe',
  readOnly: true,
  kind: 'other',
  execute: async ({ ms, label }, ctx) => {
    log.push(`start ${label}`);
    await waitAbortable(ms, ctx.signal);
    log.push(`end ${label}`);
    return `slept ${label}`;
  },
});
const note = defineTool({
  name: 'write_note',
  description: 'Writes a note.',
  schema: z.object({ text: z.string() }),
  danger: 'medium',
  readOnly: false,
  kind: 'other',
  execute: async ({ text }) => {
    log.push(`start note ${text}`);
    log.push(`end note ${text}`);
    return `noted ${text}`;
  },
});
const failing = defineTool({
  name: 'fail',
  description: 'Fails.',
  schema: z.object({ how: z.enum(['tool', 'crash']) }),
  danger: 'safe',
  readOnly: false,
  kind: 'other',
  execute: async ({ how }) => {
    if (how === 'tool') throw new ToolError('old_str appears 2 times in a.txt; include more context');
    throw new TypeError('cannot read x of undefined');
  },
});
const hang = defineTool({
  name: 'hang',
  description: 'Never finishes until aborted.',
  schema: z.object({}),
  danger: 'safe',
  readOnly: false,
  kind: 'other',
  execute: (_args, ctx) =>
    new Promise((_resolve, reject) => {
      log.push('hang started');
      ctx.signal.addEventListener('abort', () => (log.push('hang aborted'), reject(new Error('aborted'))), { once: true });
    }),
});
const chatty = defineTool({
  name: 'chatty',
  description: 'Streams output.',
  schema: z.object({}),
  danger: 'safe',
  readOnly: false,
  kind: 'other',
  execute: async (_args, ctx) => {
    ctx.onOutput('line 1\n');
    await new Promise((r) => setTimeout(r, 10));
    ctx.onOutput('line 2\n');
    return 'line 1\nline 2\n';
  },
});
const allTools: AnyTool[] = [echo, sleepTool, note, failing, hang, chatty] as AnyTool[];

const options = (over: Partial<TurnSetup> = {}): TurnOptions => turnOptions({ model: openai(), tools: allTools, ...over });

describe('runTurn', () => {
  it('answers plain text: streamed deltas, final text, usage and one turn_done', async () => {
    fake.server.enqueue({ chunks: ['Hi', ' there'], usage: { input: 11, output: 2 } });
    const opts = options();
    const events = await collect(runTurn(opts));
    expect(events.map((e) => e.type)).toEqual(['turn_started', 'thinking', 'text_delta', 'text_delta', 'assistant_text', 'usage', 'turn_done']);
    expect(ofType(events, 'assistant_text')[0]).toEqual({ type: 'assistant_text', turnId: 't1', iteration: 1, text: 'Hi there' });
    expect(ofType(events, 'turn_done')[0]).toEqual({
      type: 'turn_done',
      turnId: 't1',
      iterations: 1,
      outcome: 'answered',
      model: 'openai/fake-gpt',
      usage: { inputTokens: 11, outputTokens: 2, cacheReadTokens: 0, cacheWriteTokens: 0 },
    });
    expect(opts.conversation).toEqual([
      { role: 'user', text: 'please do it' },
      { role: 'assistant', text: 'Hi there', toolCalls: [] },
    ]);
    const body = fake.server.requests[0]!.body;
    expect(body.temperature).toBe(0.2);
    expect(body.tools.map((t: any) => t.function.name)).toEqual(['echo', 'sleep', 'write_note', 'fail', 'hang', 'chatty']);
  });

  for (const [name, make] of [
    ['openai', openai],
    ['anthropic', anthropic],
  ] as const) {
    it(`runs several tool calls from one reply and sends results back in declared order (${name})`, async () => {
      fake.server.enqueue(
        {
          text: 'Two echoes.',
          toolCalls: [
            { id: 'a', name: 'echo', args: { text: 'one' } },
            { id: 'b', name: 'write_note', args: { text: 'two' } },
          ],
        },
        { text: 'All done.' },
      );
      const opts = options({ model: make() });
      const events = await collect(runTurn(opts));
      expect(ofType(events, 'tool_call').map((e) => [e.callId, e.tool, e.iteration, e.danger])).toEqual([
        ['a', 'echo', 1, 'safe'],
        ['b', 'write_note', 1, 'medium'],
      ]);
      expect(ofType(events, 'tool_result').map((e) => [e.callId, e.output, e.isError])).toEqual([
        ['a', 'echo: one', false],
        ['b', 'noted two', false],
      ]);
      expect(ofType(events, 'turn_done')[0]).toMatchObject({ iterations: 2, outcome: 'answered' });
      expect(opts.conversation).toEqual([
        { role: 'user', text: 'please do it' },
        assistantCalling('Two echoes.', toolCallOf('a', 'echo', { text: 'one' }), toolCallOf('b', 'write_note', { text: 'two' })),
        { role: 'tool', callId: 'a', name: 'echo', output: 'echo: one', isError: false },
        { role: 'tool', callId: 'b', name: 'write_note', output: 'noted two', isError: false },
        { role: 'assistant', text: 'All done.', toolCalls: [] },
      ]);
      const second = JSON.stringify(fake.server.requests[1]!.body.messages);
      expect(second.indexOf('echo: one')).toBeGreaterThan(-1);
      expect(second.indexOf('echo: one')).toBeLessThan(second.indexOf('noted two'));
    });
  }

  it('turns thrown errors, unknown tools and bad arguments into error results the model sees', async () => {
    fake.server.enqueue(
      {
        toolCalls: [
          { id: 'c1', name: 'fail', args: { how: 'tool' } },
          { id: 'c2', name: 'fail', args: { how: 'crash' } },
          { id: 'c3', name: 'no_such_tool', args: {} },
          { id: 'c4', name: 'echo', args: '{"text": "unterminated' },
          { id: 'c5', name: 'echo', args: { text: 42 } },
        ],
      },
      { text: 'I see the errors.' },
    );
    const opts = options();
    const events = await collect(runTurn(opts));
    const results = ofType(events, 'tool_result');
    expect(results.every((r) => r.isError)).toBe(true);
    expect(results[0]!.output).toBe('old_str appears 2 times in a.txt; include more context');
    expect(results[1]!.output).toBe('Tool fail failed: cannot read x of undefined');
    expect(results[2]!.output).toContain('Unknown tool "no_such_tool"');
    expect(results[2]!.output).toContain('echo, sleep');
    expect(results[3]!.output).toContain('not valid JSON');
    expect(results[3]!.output).toContain('{"text": "unterminated');
    expect(results[4]!.output).toContain('text: expected string, received number');
    expect(ofType(events, 'tool_call')[3]).toMatchObject({ callId: 'c4', args: undefined, rawArgs: '{"text": "unterminated' });
    expect(ofType(events, 'turn_done')[0]).toMatchObject({ outcome: 'answered', iterations: 2 });
    expect(JSON.stringify(fake.server.requests[1]!.body.messages)).toContain('Tool fail failed');
  });

  it('stops at the default iteration limit of 40 with a clear agent error', async () => {
    let n = 0;
    fake.server.setHandler(() => ({ toolCalls: [{ name: 'echo', args: { text: `round ${++n}` } }] }));
    const events = await collect(runTurn(options()));
    expect(fake.server.requests).toHaveLength(40);
    expect(ofType(events, 'agent_error')).toEqual([{ type: 'agent_error', turnId: 't1', code: 'max_iterations', message: 'max_iterations (40) exceeded' }]);
    expect(ofType(events, 'turn_done')[0]).toMatchObject({ iterations: 40, outcome: 'max_iterations' });
    expect(ofType(events, 'usage')).toHaveLength(1);
    expect(events.at(-1)!.type).toBe('turn_done');
  });

  it('cancels a running tool, rolls the conversation back and says so', async () => {
    fake.server.enqueue({ text: 'Waiting.', toolCalls: [{ id: 'h', name: 'hang', args: {} }] });
    const earlier: Message[] = [
      { role: 'user', text: 'before' },
      { role: 'assistant', text: 'ok', toolCalls: [] },
    ];
    const ac = new AbortController();
    const opts = options({ conversation: [...earlier], signal: ac.signal });
    const events = await collect(runTurn(opts), (e) => {
      if (e.type === 'tool_call') setTimeout(() => ac.abort(), 20);
    });
    expect(log).toEqual(['hang started', 'hang aborted']);
    expect(events.at(-1)).toEqual({ type: 'turn_cancelled', turnId: 't1', note: CANCEL_NOTE });
    expect(ofType(events, 'turn_done')).toHaveLength(0);
    expect(opts.conversation).toEqual(earlier);
  });

  it('cancels while the model is still answering', async () => {
    fake.server.enqueue({ hang: true });
    const ac = new AbortController();
    const opts = options({ signal: ac.signal });
    const events = await collect(runTurn(opts), (e) => {
      if (e.type === 'thinking') setTimeout(() => ac.abort(), 20);
    });
    expect(events.at(-1)!.type).toBe('turn_cancelled');
    expect(opts.conversation).toEqual([]);
  });

  it('cancels while the gate waits for a permission answer', async () => {
    let gateSignal: AbortSignal | undefined;
    const gate: ToolGate = {
      check: (_call, signal) =>
        new Promise((resolve) => {
          gateSignal = signal;
          signal.addEventListener('abort', () => resolve({ allow: false, reason: 'cancelled' }), { once: true });
        }),
    };
    fake.server.enqueue({ toolCalls: [{ id: 'w', name: 'write_note', args: { text: 'x' } }] });
    const ac = new AbortController();
    const opts = options({ gate, signal: ac.signal });
    const events = await collect(runTurn(opts), (e) => {
      if (e.type === 'tool_call') setTimeout(() => ac.abort(), 10);
    });
    expect(gateSignal?.aborted).toBe(true);
    expect(log).toEqual([]);
    expect(events.at(-1)!.type).toBe('turn_cancelled');
    expect(opts.conversation).toEqual([]);
  });

  it('treats a consumer that stops listening as a cancel', async () => {
    fake.server.enqueue({ toolCalls: [{ id: 'h', name: 'hang', args: {} }] });
    const opts = options();
    for await (const e of runTurn(opts)) if (e.type === 'tool_call') break;
    await new Promise((r) => setTimeout(r, 30));
    // the tool either never started or was aborted; it is not left running
    expect(log.length === 0 || log.join() === 'hang started,hang aborted').toBe(true);
    expect(opts.conversation).toEqual([]);
    expect(fake.server.requests).toHaveLength(1);
  });

  it('runs adjacent read-only calls concurrently, treats a writing call as a barrier, keeps declared order', async () => {
    fake.server.enqueue(
      {
        toolCalls: [
          { id: 'A', name: 'sleep', args: { ms: 80, label: 'A' } },
          { id: 'B', name: 'sleep', args: { ms: 10, label: 'B' } },
          { id: 'C', name: 'write_note', args: { text: 'C' } },
          { id: 'D', name: 'sleep', args: { ms: 5, label: 'D' } },
        ],
      },
      { text: 'ok' },
    );
    const opts = options();
    const events = await collect(runTurn(opts));
    expect(log).toEqual(['start A', 'start B', 'end B', 'end A', 'start note C', 'end note C', 'start D', 'end D']);
    expect(ofType(events, 'tool_result').map((e) => e.callId)).toEqual(['A', 'B', 'C', 'D']);
    expect(opts.conversation.filter((m) => m.role === 'tool').map((m) => (m as { callId: string }).callId)).toEqual(['A', 'B', 'C', 'D']);
  });

  it('merges streamed tool output into the event stream between the call and its result', async () => {
    fake.server.enqueue({ toolCalls: [{ id: 'x', name: 'chatty', args: {} }] }, { text: 'ok' });
    const events = await collect(runTurn(options()));
    const types = events.map((e) => e.type);
    const call = types.indexOf('tool_call');
    const result = types.indexOf('tool_result');
    const outputs = events.map((e, i) => [e, i] as const).filter(([e]) => e.type === 'command_output');
    expect(outputs.map(([e]) => (e as { data: string }).data)).toEqual(['line 1\n', 'line 2\n']);
    expect(outputs.every(([, i]) => i > call && i < result)).toBe(true);
  });

  it('nudges on the 3rd identical call and stops the turn on the 5th without running it', async () => {
    let executed = 0;
    const counted = defineTool({ ...echo, execute: async ({ text }) => (executed++, `echo: ${text}`) }) as AnyTool;
    fake.server.setHandler(() => ({ toolCalls: [{ name: 'echo', args: { text: 'same' } }] }));
    const opts = options({ tools: [counted] });
    const events = await collect(runTurn(opts));
    expect(executed).toBe(4);
    expect(ofType(events, 'loop_warning')).toEqual([
      { type: 'loop_warning', tool: 'echo', count: 3, stopped: false },
      { type: 'loop_warning', tool: 'echo', count: 5, stopped: true },
    ]);
    const results = ofType(events, 'tool_result');
    expect(results[1]!.output).toBe('echo: same');
    expect(results[2]!.output).toContain('3 times in a row');
    expect(results[3]!.output).toContain('4 times in a row');
    expect(results[4]).toMatchObject({ isError: true });
    expect(results[4]!.output).toContain('Not run');
    expect(ofType(events, 'agent_error')[0]).toMatchObject({ code: 'loop_stopped' });
    expect(ofType(events, 'turn_done')[0]).toMatchObject({ outcome: 'loop_stopped', iterations: 5 });
    expect(fake.server.requests).toHaveLength(5);
  });

  it('resets the repeat count when a different call comes between', async () => {
    const script = ['a', 'a', 'b', 'a', 'a', 'b', 'a', 'a'];
    for (const text of script) fake.server.enqueue({ toolCalls: [{ name: 'echo', args: { text } }] });
    fake.server.enqueue({ text: 'done' });
    const events = await collect(runTurn(options()));
    expect(ofType(events, 'loop_warning')).toEqual([]);
    expect(ofType(events, 'turn_done')[0]).toMatchObject({ outcome: 'answered' });
  });

  it('folds steering in after tool results, before the next model call, and after a final answer', async () => {
    fake.server.enqueue({ toolCalls: [{ id: 'e', name: 'echo', args: { text: 'x' } }] }, { text: 'first answer' }, { text: 'second answer' });
    const pending: SteeringMessage[] = [];
    const opts = options({ takeSteering: () => pending.splice(0) });
    const events = await collect(runTurn(opts), (e) => {
      if (e.type === 'tool_call') pending.push({ text: 'also check y', by: 'bo' });
      if (e.type === 'assistant_text' && e.text === 'first answer') pending.push({ text: 'and z', by: 'ana' });
    });
    const types = events.map((e) => e.type);
    const steer = types.indexOf('user_message');
    expect(types.indexOf('tool_result')).toBeLessThan(steer);
    expect(types.indexOf('thinking', types.indexOf('tool_result'))).toBeGreaterThan(steer);
    expect(ofType(events, 'user_message')).toEqual([
      { type: 'user_message', text: 'also check y', by: 'bo', mode: 'steer' },
      { type: 'user_message', text: 'and z', by: 'ana', mode: 'steer' },
    ]);
    expect(fake.server.requests).toHaveLength(3);
    expect(fake.server.requests[1]!.body.messages.at(-1)).toEqual({ role: 'user', content: 'also check y' });
    expect(fake.server.requests[2]!.body.messages.at(-1)).toEqual({ role: 'user', content: 'and z' });
    expect(ofType(events, 'turn_done')[0]).toMatchObject({ iterations: 3, outcome: 'answered' });
    expect(opts.conversation.at(-1)).toEqual({ role: 'assistant', text: 'second answer', toolCalls: [] });
  });

  it('leaves a tool that waits for setting up out of the request; a call to it still passes the gate and answers', async () => {
    const gated: string[] = [];
    const gate: ToolGate = {
      check: async (call) => {
        gated.push(call.tool);
        return { allow: true };
      },
    };
    const calendar = defineTool({
      ...echo,
      name: 'calendar',
      setup: (services) => ((services as { calendar?: unknown }).calendar ? undefined : 'add "calendars" to config.json'),
      execute: async () => {
        throw new ToolError('no calendars are configured');
      },
    }) as AnyTool;
    const names = (i: number) => fake.server.requests[i]!.body.tools.map((t: { function: { name: string } }) => t.function.name);
    const configured = { calendar: { calendars: [{ name: 'Work', ics: '/w.ics' }], timezone: 'UTC', env: {} } } as ToolServices;
    // Without dynamic tools (specs made once per turn) and with them (remade when they change).
    for (const dynamicTools of [undefined, () => ({ tools: [], notices: [] })]) {
      const first = fake.server.requests.length;
      fake.server.enqueue({ toolCalls: [{ id: 'c', name: 'calendar', args: { text: 'x' } }] }, { text: 'none' }, { text: 'hi' });
      const events = await collect(runTurn(options({ tools: [echo, calendar] as AnyTool[], gate, ...(dynamicTools ? { dynamicTools } : {}) })));
      expect(names(first)).toEqual(['echo']);
      expect(ofType(events, 'tool_result').map((r) => [r.callId, r.isError, r.output])).toEqual([['c', true, 'no calendars are configured']]);
      await collect(runTurn(options({ tools: [echo, calendar] as AnyTool[], services: configured, ...(dynamicTools ? { dynamicTools } : {}) })));
      expect(names(first + 2)).toEqual(['echo', 'calendar']);
    }
    expect(gated).toEqual(['calendar', 'calendar']);
  });

  it('turns a gate refusal into an error result, and a stopTurn refusal into the end of the turn', async () => {
    const seen: string[] = [];
    const gate: ToolGate = {
      check: async (call) => {
        seen.push(`${call.tool}:${call.danger}:${call.readOnly}`);
        if (call.tool === 'write_note') return { allow: false, reason: 'Denied by ana: write_note is not allowed here.' };
        if (call.tool === 'chatty') return { allow: false, reason: 'No driver answered the permission request within 60 s.', stopTurn: 'permission_timeout' };
        return { allow: true };
      },
    };
    fake.server.enqueue(
      { toolCalls: [{ id: 'w', name: 'write_note', args: { text: 'x' } }] },
      {
        toolCalls: [
          { id: 'c', name: 'chatty', args: {} },
          { id: 'e', name: 'echo', args: { text: 'later' } },
        ],
      },
    );
    const opts = options({ gate });
    const events = await collect(runTurn(opts));
    expect(log).toEqual([]);
    expect(seen).toEqual(['write_note:medium:false', 'chatty:safe:false']);
    expect(ofType(events, 'tool_result').map((r) => [r.callId, r.isError, r.output])).toEqual([
      ['w', true, 'Denied by ana: write_note is not allowed here.'],
      ['c', true, 'No driver answered the permission request within 60 s.'],
      ['e', true, NOT_RUN_OUTPUT],
    ]);
    expect(ofType(events, 'agent_error')[0]).toMatchObject({ code: 'permission_timeout' });
    expect(ofType(events, 'turn_done')[0]).toMatchObject({ outcome: 'permission_timeout', iterations: 2 });
  });

  it('times a tool out on the injected clock and reports it as an error result', async () => {
    const clock = new FakeClock();
    fake.server.enqueue({ toolCalls: [{ id: 'h', name: 'hang', args: {} }] }, { text: 'it timed out' });
    const gen = collect(runTurn(options({ clock, limits: { toolTimeoutMs: 1500 } })));
    await clock.waitForSleepers(1);
    await clock.advance(1499);
    expect(log).toEqual(['hang started']);
    await clock.advance(1);
    const events = await gen;
    expect(log).toEqual(['hang started', 'hang aborted']);
    expect(ofType(events, 'tool_result')[0]).toMatchObject({ isError: true, output: 'Tool hang timed out after 1.5 s and was stopped.', durationMs: 1500 });
    expect(ofType(events, 'turn_done')[0]).toMatchObject({ outcome: 'answered' });
  });

  it("stops each call's timeout timer and the stream's stall timer once they are done", async () => {
    const clock = new FakeClock();
    fake.server.enqueue(
      {
        toolCalls: [
          { id: 'a', name: 'echo', args: { text: 'one' } },
          { id: 'b', name: 'write_note', args: { text: 'two' } },
        ],
      },
      { text: 'done' },
    );
    const events = await collect(runTurn(options({ clock, limits: { toolTimeoutMs: 1500 } })));
    expect(ofType(events, 'tool_result').map((e) => e.isError)).toEqual([false, false]);
    // Two timeouts and two streams' watchdogs were armed; none is left behind to fire later.
    expect(clock.sleeps.filter((ms) => ms === 1500)).toHaveLength(2);
    expect(clock.pendingSleeps()).toBe(0);
  });

  it('reports provider errors as agent errors and keeps a partial reply', async () => {
    fake.server.enqueue({ status: 401 });
    const first = options();
    const events = await collect(runTurn(first));
    expect(ofType(events, 'agent_error')[0]).toMatchObject({ code: 'auth' });
    expect(ofType(events, 'agent_error')[0]!.message).toContain('check the API key');
    expect(ofType(events, 'turn_done')[0]).toMatchObject({ outcome: 'error', iterations: 1 });
    expect(first.conversation).toEqual([{ role: 'user', text: 'please do it' }]);

    fake.server.enqueue({ chunks: ['Half ', 'an ', 'answer'], cutAfterChunks: 3 });
    const second = options();
    const cut = await collect(runTurn(second));
    expect(ofType(cut, 'assistant_text')[0]).toMatchObject({ text: 'Half an ' });
    expect(ofType(cut, 'agent_error')[0]).toMatchObject({ code: 'stream_cut' });
    expect(ofType(cut, 'agent_error')[0]!.message).toMatch(/The partial reply was kept\.$/);
    expect(second.conversation.at(-1)).toEqual({ role: 'assistant', text: 'Half an ', toolCalls: [] });
  });
});

describe('tool definitions', () => {
  it('are made once per tool: every turn, with or without dynamic tools, sends the same spec objects', async () => {
    const offered: ToolSpec[][] = [];
    const model: ModelClient = {
      id: 'test/specs',
      async *stream(request) {
        offered.push(request.tools);
        yield { type: 'text_delta', delta: 'ok' };
        yield { type: 'done', stopReason: 'stop' };
      },
    };
    await collect(runTurn(turnOptions({ model, tools: [echo] })));
    await collect(runTurn(turnOptions({ model, tools: [echo] })));
    await collect(runTurn(turnOptions({ model, tools: [echo], dynamicTools: () => ({ tools: [], notices: [] }) })));

    expect(offered).toHaveLength(3);
    expect(offered[0]!.map((t) => t.name)).toEqual(['echo']);
    expect(offered[0]![0]!.parameters).toMatchObject({ type: 'object', properties: { text: { type: 'string' } } });
    expect(offered[1]![0]).toBe(offered[0]![0]);
    expect(offered[2]![0]).toBe(offered[0]![0]);
  });
});

describe('dynamic tools', () => {
  it('sends the same tool list again while they are unchanged, and a changed list or notice on the very next request', async () => {
    const extra = defineTool({
      name: 'mcp__x__ping',
      description: 'Pings.',
      schema: z.object({}),
      danger: 'safe',
      readOnly: true,
      kind: 'other',
      execute: async () => 'pong',
    });
    const offered: Array<{ tools: ToolSpec[]; system: string }> = [];
    // Calls echo three times, then answers; the dynamic tools change after the second request.
    const model: ModelClient = {
      id: 'test/dynamic',
      async *stream(request) {
        offered.push({ tools: request.tools, system: request.system });
        const n = offered.length;
        if (n <= 3) yield { type: 'tool_call', call: { id: `c${n}`, name: 'echo', args: { text: `${n}` }, rawArgs: `{"text":"${n}"}` } };
        else yield { type: 'text_delta', delta: 'done' };
        yield { type: 'done', stopReason: n <= 3 ? 'tool_use' : 'stop' };
      },
    };
    const same = { tools: [extra], notices: [] };
    const changed = { tools: [], notices: ['server x stopped; its tools are gone'] };
    const options = turnOptions({ model, tools: [echo], dynamicTools: () => (offered.length < 2 ? same : changed) });
    await collect(runTurn(options));

    expect(offered).toHaveLength(4);
    expect(offered[0]!.tools.map((t) => t.name)).toEqual(['echo', 'mcp__x__ping']);
    expect(offered[1]!.tools).toBe(offered[0]!.tools);
    expect(offered[2]!.tools.map((t) => t.name)).toEqual(['echo']);
    expect(offered[2]!.system).toContain('server x stopped; its tools are gone');
    expect(offered[1]!.system).not.toContain('server x stopped');
    expect(offered[3]!.tools).toBe(offered[2]!.tools);
  });
});
