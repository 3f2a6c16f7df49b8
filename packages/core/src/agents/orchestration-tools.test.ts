import { describe, expect, it } from 'vitest';
import { planBatches } from '../loop/parallel-batches.js';
import { type AnyTool, type ToolContext, type ToolOutcome, toToolSpec } from '../tools/define.js';
import type { AgentDefinition } from './agent-file.js';
import type { AgentRunner, AgentRunRequest, AgentRunResult } from './agent-runner.js';
import { createLimiter } from './concurrency-limit.js';
import { emptyLedger, type Ledger } from './ledger.js';
import { createOrchestrationTools, type LedgerStore, type OrchestrationOptions } from './orchestration-tools.js';

const agent = (name: string, interactive = false): AgentDefinition => ({
  name,
  description: `${name} does things`,
  interactive,
  prompt: `You are ${name}.`,
  file: `/ws/.tandem/agents/${name}.md`,
  scope: 'project',
});
const AGENTS = [agent('reviewer'), agent('tester'), agent('pair', true)];

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((res) => {
    resolve = res;
  });
  return { promise, resolve };
}

/** A runner whose runs end when the test says so; it records every request and hand-off. */
class ScriptedRunner implements AgentRunner {
  readonly requests: AgentRunRequest[] = [];
  readonly handOffs: Array<{ agent: string; message?: string; by: string }> = [];
  readonly gates = new Map<string, ReturnType<typeof deferred<AgentRunResult>>>();
  running = 0;
  maxOverlap = 0;
  private startedWaiters: Array<() => void> = [];

  async runAgent(request: AgentRunRequest): Promise<AgentRunResult> {
    this.requests.push(request);
    const gate = deferred<AgentRunResult>();
    this.gates.set(request.task, gate);
    this.running += 1;
    this.maxOverlap = Math.max(this.maxOverlap, this.running);
    for (const wake of this.startedWaiters.splice(0)) wake();
    try {
      return await gate.promise;
    } finally {
      this.running -= 1;
    }
  }

  async handOff(request: { agent: string; message?: string; by: string }): Promise<void> {
    this.handOffs.push(request);
  }

  /** Resolves once `n` runs have started (woken by runAgent, no polling). */
  async started(n: number): Promise<void> {
    while (this.requests.length < n) await new Promise<void>((wake) => this.startedWaiters.push(wake));
  }

  finish(task: string, result: AgentRunResult): void {
    this.gates.get(task)?.resolve(result);
  }
}

function setup(overrides: Partial<OrchestrationOptions> = {}) {
  const runner = new ScriptedRunner();
  let ledger: Ledger = emptyLedger();
  const store: LedgerStore = { get: () => ledger, set: (l) => (ledger = l) };
  let ids = 0;
  const tools = createOrchestrationTools({
    runner,
    agents: () => AGENTS,
    ledger: store,
    clock: { now: () => 1000 },
    newTaskId: () => `t${++ids}`,
    ...overrides,
  });
  const byName = (name: string) => tools.find((t) => t.name === name) as AnyTool;
  return { runner, tools, byName, ledger: () => ledger };
}

function ctx(signal: AbortSignal = new AbortController().signal): ToolContext {
  return { sessionId: 's1', callId: 'c1', cwd: '/ws', signal, onOutput: () => {}, services: {} } as unknown as ToolContext;
}

async function call(tool: AnyTool, args: unknown, signal?: AbortSignal): Promise<ToolOutcome> {
  const out = await tool.execute(tool.schema.parse(args), ctx(signal));
  return typeof out === 'string' ? { output: out } : out;
}

describe('orchestration tools', () => {
  it('are dispatch_to, run_worker and hand_off_to with JSON Schemas the model sees', () => {
    const { tools } = setup();
    const specs = tools.map(toToolSpec);
    expect(specs.map((s) => s.name)).toEqual(['dispatch_to', 'run_worker', 'hand_off_to']);
    expect(specs[0]?.parameters).toMatchObject({ type: 'object', required: ['agent', 'task'] });
    expect(specs[1]?.parameters).toMatchObject({ required: ['task'] });
    expect(specs[2]?.parameters).toMatchObject({ required: ['agent'] });
  });

  it('dispatch_to runs the agent on its task and returns its final answer; the ledger records both ends', async () => {
    const { runner, byName, ledger } = setup();
    const pending = call(byName('dispatch_to'), { agent: 'reviewer', task: 'review a.ts' });
    await runner.started(1);
    expect(runner.requests[0]).toMatchObject({
      agent: 'reviewer',
      definition: AGENTS[0],
      kind: 'dispatch',
      task: 'review a.ts',
      taskId: 't1',
      parent: 'commander',
      visible: true,
      depth: 1,
    });
    expect(ledger().tasks).toEqual([expect.objectContaining({ taskId: 't1', status: 'running' })]);
    runner.finish('review a.ts', { answer: 'LGTM' });
    expect(await pending).toEqual({ output: 'LGTM' });
    expect(ledger().tasks).toEqual([expect.objectContaining({ taskId: 't1', status: 'done', result: 'LGTM' })]);
  });

  it('two dispatch_to of one reply run at the same time and come back in declared order', async () => {
    const { runner, tools, byName } = setup();
    // The loop runs neighbouring readOnly calls as one concurrent batch.
    const calls = [
      { name: 'dispatch_to', args: { agent: 'reviewer', task: 'A' } },
      { name: 'dispatch_to', args: { agent: 'tester', task: 'B' } },
    ];
    expect(planBatches(calls, (c) => tools.find((t) => t.name === c.name)?.readOnly === true)).toHaveLength(1);
    const results = Promise.all(calls.map((c) => call(byName(c.name), c.args)));
    await runner.started(2);
    expect(runner.running).toBe(2);
    runner.finish('B', { answer: 'B done' }); // the second ends first
    runner.finish('A', { answer: 'A done' });
    expect((await results).map((r) => r.output)).toEqual(['A done', 'B done']);
    expect(runner.maxOverlap).toBe(2);
  });

  it('the shared limiter bounds how many agents run at once', async () => {
    const { runner, byName } = setup({ limiter: createLimiter(2) });
    const tasks = ['A', 'B', 'C'];
    const results = Promise.all(tasks.map((task) => call(byName('dispatch_to'), { agent: 'reviewer', task })));
    await runner.started(2);
    expect(runner.requests.map((r) => r.task)).toEqual(['A', 'B']);
    runner.finish('A', { answer: 'a' });
    await runner.started(3);
    runner.finish('B', { answer: 'b' });
    runner.finish('C', { answer: 'c' });
    expect((await results).map((r) => r.output)).toEqual(['a', 'b', 'c']);
    expect(runner.maxOverlap).toBe(2);
  });

  it("a worker's provider error (returned or thrown) becomes its error result; the caller goes on", async () => {
    const { runner, byName, ledger } = setup();
    const failed = call(byName('dispatch_to'), { agent: 'tester', task: 'T' });
    await runner.started(1);
    runner.finish('T', { error: 'openai: 500 Internal Server Error' });
    expect(await failed).toEqual({ isError: true, output: 'tester (t1) failed: openai: 500 Internal Server Error' });
    expect(ledger().tasks[0]).toMatchObject({ status: 'failed', result: 'openai: 500 Internal Server Error' });

    const throwing = createOrchestrationTools({
      runner: { runAgent: () => Promise.reject(new Error('socket hang up')), handOff: async () => {} },
      agents: () => AGENTS,
      newTaskId: () => 'tx',
    });
    expect(await call(throwing[0]!, { agent: 'reviewer', task: 'x' })).toEqual({ isError: true, output: 'reviewer (tx) failed: socket hang up' });
  });

  it('dispatch_to an unknown agent is an error result naming the defined ones; nothing runs', async () => {
    const { runner, byName } = setup();
    expect(await call(byName('dispatch_to'), { agent: 'reviewr', task: 'x' })).toEqual({
      isError: true,
      output: 'no agent is called "reviewr": the defined agents are reviewer, tester, pair',
    });
    expect(runner.requests).toEqual([]);
  });

  it('run_worker: anonymous workers are worker-N and hidden, named ones are shown; taken names are refused', async () => {
    const { runner, byName } = setup();
    const runs = [
      call(byName('run_worker'), { task: 'w1' }),
      call(byName('run_worker'), { task: 'w2' }),
      call(byName('run_worker'), { task: 'w3', name: 'scout' }),
    ];
    await runner.started(3);
    expect(runner.requests.map((r) => [r.agent, r.visible, r.kind, r.definition])).toEqual([
      ['worker-1', false, 'worker', undefined],
      ['worker-2', false, 'worker', undefined],
      ['scout', true, 'worker', undefined],
    ]);
    for (const t of ['w1', 'w2', 'w3']) runner.finish(t, { answer: t });
    expect((await Promise.all(runs)).map((r) => r.output)).toEqual(['w1', 'w2', 'w3']);
    for (const name of ['reviewer', 'commander', 'worker-7'])
      expect(await call(byName('run_worker'), { task: 'x', name })).toMatchObject({ isError: true, output: expect.stringContaining('is taken') });
    expect(() => byName('run_worker').schema.parse({ task: 'x', name: 'Bad Name' })).toThrow();
  });

  it('depth limit: an agent at the limit (a worker, by default) cannot dispatch, start workers or hand off', async () => {
    const { runner, tools } = setup({ self: 'reviewer', depth: 1 });
    for (const [tool, args] of [
      [tools[0]!, { agent: 'tester', task: 'x' }],
      [tools[1]!, { task: 'x' }],
      [tools[2]!, { agent: 'pair' }],
    ] as const)
      expect(await call(tool, args)).toEqual({
        isError: true,
        output: 'reviewer cannot start other agents: the depth limit is 1 (only agents above it may dispatch)',
      });
    expect(runner.requests).toEqual([]);
    expect(runner.handOffs).toEqual([]);
    // Allowed deeper, the child's depth goes one further.
    const deeper = setup({ self: 'reviewer', depth: 1, maxDepth: 2 });
    const run = call(deeper.tools[0]!, { agent: 'tester', task: 'deep' });
    await deeper.runner.started(1);
    expect(deeper.runner.requests[0]).toMatchObject({ parent: 'reviewer', depth: 2 });
    deeper.runner.finish('deep', { answer: 'ok' });
    expect(await run).toEqual({ output: 'ok' });
  });

  it('hand_off_to gives the floor to an interactive agent and ends the turn; a non-interactive or unknown one is an error and the floor stays', async () => {
    const { runner, byName } = setup();
    const ok = await call(byName('hand_off_to'), { agent: 'pair', message: 'the user wants to pair on the parser' });
    expect(ok).toEqual({ output: 'pair has the floor now; it answers the user until it hands back.', endsTurn: true });
    expect(runner.handOffs).toEqual([{ agent: 'pair', message: 'the user wants to pair on the parser', by: 'commander' }]);

    const refused = await call(byName('hand_off_to'), { agent: 'reviewer' });
    expect(refused).toMatchObject({ isError: true, output: expect.stringContaining('reviewer is not interactive') });
    expect(refused.output).toContain('the floor stays with commander');
    expect(await call(byName('hand_off_to'), { agent: 'ghost' })).toMatchObject({ isError: true, output: expect.stringContaining('the floor stays') });
    expect(runner.handOffs).toHaveLength(1);
    expect(refused.endsTurn).toBeUndefined();
  });

  it('stopping: a run aborted while waiting for a slot never starts, and the ledger marks it cancelled', async () => {
    const { runner, byName, ledger } = setup({ limiter: createLimiter(1) });
    const controller = new AbortController();
    const first = call(byName('dispatch_to'), { agent: 'reviewer', task: 'A' }, controller.signal);
    const second = call(byName('dispatch_to'), { agent: 'tester', task: 'B' }, controller.signal);
    await runner.started(1);
    controller.abort();
    expect(await second).toEqual({ isError: true, output: 'tester (t2) was stopped' });
    runner.finish('A', { error: 'aborted' });
    expect(await first).toEqual({ isError: true, output: 'reviewer (t1) was stopped' });
    expect(runner.requests.map((r) => r.task)).toEqual(['A']);
    expect(ledger().tasks.map((t) => t.status)).toEqual(['cancelled', 'cancelled']);
    expect(runner.requests[0]?.signal.aborted).toBe(true);
  });
});
