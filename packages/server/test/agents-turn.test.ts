import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SessionEvent } from '@tandem/shared';
import type { FakeReply, FakeRequest } from '@tandem/testkit';
import { processesMatching, uniqueMarker } from '../src/pty/process-probe.test-helper.js';
import { fakeModelBed, startTestServer, type TestClient } from './server-harness.js';

/**
 * The commander and its workers through real turns (SPEC G1–G5, ARCHITECTURE.md "Agents"): the
 * real openai SDK against the fake model server, which answers each agent by markers in its own
 * system prompt or task. What a worker's model request holds is read off the fake's requests.
 */
const bed = fakeModelBed();

interface WireMessage {
  role: string;
  content?: unknown;
  tool_calls?: Array<{ function: { name: string } }>;
}

const messagesOf = (req: FakeRequest): WireMessage[] => (req.body?.messages ?? []) as WireMessage[];
const systemOf = (req: FakeRequest): string => String(messagesOf(req).find((m) => m.role === 'system')?.content ?? '');
const textOf = (req: FakeRequest): string => JSON.stringify(messagesOf(req));
const toolNames = (req: FakeRequest): string[] => ((req.body?.tools ?? []) as Array<{ function: { name: string } }>).map((t) => t.function.name);
const toolResults = (req: FakeRequest): string[] => messagesOf(req).flatMap((m) => (m.role === 'tool' ? [String(m.content)] : []));

function defineAgent(workspace: string, name: string, frontmatter: string, prompt: string): void {
  const dir = join(workspace, '.tandem', 'agents');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${name}.md`), `---\nname: ${name}\n${frontmatter}\n---\n${prompt}\n`);
}

/** A promise with its resolver, to hold one fake reply until another request has arrived. */
function signal(): { promise: Promise<void>; fire: () => void } {
  let fire = () => {};
  const promise = new Promise<void>((resolve) => {
    fire = resolve;
  });
  return { promise, fire };
}

async function driver(name = 'alice'): Promise<{ client: TestClient; sessionId: string }> {
  const server = bed.server;
  if (!server) throw new Error('no server');
  const client = await server.connect(name);
  const { session } = await client.ok('session:create', {});
  await client.ok('session:attach', { sessionId: session.id, role: 'driver' });
  return { client, sessionId: session.id };
}

const ofType = <T extends SessionEvent['type']>(events: SessionEvent[], type: T) =>
  events.filter((e): e is Extract<SessionEvent, { type: T }> => e.type === type);

describe('the commander and its workers', () => {
  it('two dispatch_to in one reply run at the same time on isolated slices and come back in declared order; a viewer sees the same events', async () => {
    const reviewerArrived = signal();
    const testerArrived = signal();
    const workerRequests: FakeRequest[] = [];
    bed.fake.setHandler(async (req): Promise<FakeReply> => {
      const system = systemOf(req);
      if (system.includes('ROLE-REVIEWER')) {
        workerRequests.push(req);
        reviewerArrived.fire();
        // Held until the tester's request is in: only concurrent runs get here.
        await testerArrived.promise;
        return { text: 'REVIEW-RESULT: two nits' };
      }
      if (system.includes('ROLE-TESTER')) {
        workerRequests.push(req);
        testerArrived.fire();
        await reviewerArrived.promise;
        return { text: 'TEST-RESULT: all green' };
      }
      if (toolResults(req).length === 0)
        return {
          toolCalls: [
            { name: 'dispatch_to', args: { agent: 'reviewer', task: 'TASK-R review src/a.ts' } },
            { name: 'dispatch_to', args: { agent: 'tester', task: 'TASK-T run the tests' } },
          ],
        };
      return { text: 'Both came back.' };
    });
    bed.server = await startTestServer({ env: bed.env() });
    defineAgent(bed.server.workspace.path, 'reviewer', 'description: Reviews diffs for bugs.', 'ROLE-REVIEWER You review code.');
    defineAgent(bed.server.workspace.path, 'tester', 'description: Runs the test suite.\ntools: [read_file]', 'ROLE-TESTER You run tests.');
    const { client: alice, sessionId } = await driver();
    const bob = await bed.server.connect('bob');
    await bob.ok('session:attach', { sessionId, role: 'viewer' });

    await alice.ok('session:send', { sessionId, text: 'USER-SECRET-CONTEXT check the change' });
    await alice.waitFor((e) => e.type === 'turn_done' && e.agent === 'commander');

    // The commander's prompt lists the agents verbatim; it has the orchestration tools.
    const first = bed.fake.requests.find((r) => systemOf(r).includes('Agents you can delegate to'));
    expect(systemOf(first!)).toContain('- reviewer: Reviews diffs for bugs.');
    expect(toolNames(first!)).toEqual(expect.arrayContaining(['dispatch_to', 'run_worker']));
    expect(toolNames(first!)).not.toContain('hand_off_to');

    // Each worker's request holds its own prompt and task only: no user message of the session, no other worker.
    expect(workerRequests).toHaveLength(2);
    for (const req of workerRequests) {
      expect(textOf(req)).not.toContain('USER-SECRET-CONTEXT');
      expect(toolNames(req)).not.toContain('dispatch_to');
    }
    const reviewerReq = workerRequests.find((r) => systemOf(r).includes('ROLE-REVIEWER'))!;
    const testerReq = workerRequests.find((r) => systemOf(r).includes('ROLE-TESTER'))!;
    expect(textOf(reviewerReq)).toContain('TASK-R');
    expect(textOf(reviewerReq)).not.toContain('TASK-T');
    expect(textOf(testerReq)).not.toContain('REVIEW-RESULT');
    expect(toolNames(testerReq)).toEqual(['read_file']);
    // Each prompt names the tools its agent has, not the session's.
    expect(systemOf(testerReq)).toContain('Your tools: read_file.');
    expect(systemOf(reviewerReq)).toMatch(/Your tools: read_file, [^\n]*run_command/);
    expect(systemOf(reviewerReq)).not.toMatch(/Your tools: [^\n]*dispatch_to/);

    // The commander's second request: both answers, in the order it wrote the calls.
    const second = bed.fake.requests.at(-1)!;
    const results = toolResults(second);
    expect(results).toEqual(['REVIEW-RESULT: two nits', 'TEST-RESULT: all green']);

    const events = alice.persisted();
    const started = ofType(events, 'agent_started');
    expect(started.map((e) => [e.agent, e.parent, e.visible])).toEqual([
      ['reviewer', 'commander', true],
      ['tester', 'commander', true],
    ]);
    const done = ofType(events, 'agent_done');
    expect(done.map((e) => [e.agent, e.isError, e.result]).sort()).toEqual([
      ['reviewer', false, 'REVIEW-RESULT: two nits'],
      ['tester', false, 'TEST-RESULT: all green'],
    ]);
    // A worker's own events carry its agent and task; its text is never the commander's.
    const reviewerText = ofType(events, 'assistant_text').find((e) => e.text.startsWith('REVIEW-RESULT'));
    expect(reviewerText).toMatchObject({ agent: 'reviewer', taskId: started[0]!.taskId });
    expect(ofType(events, 'assistant_text').find((e) => e.text === 'Both came back.')).toMatchObject({ agent: 'commander' });
    expect(ofType(events, 'user_message')[0]).toMatchObject({ agent: 'commander' });

    // The viewer saw exactly the driver's events.
    await bob.waitFor((e) => e.seq === events.at(-1)!.seq);
    const seen = (c: TestClient) => c.persisted().filter((e) => e.seq > 0 && e.type !== 'presence');
    expect(seen(bob).map((e) => [e.seq, e.type, e.agent, e.taskId])).toEqual(
      seen(alice)
        .filter((e) => e.seq >= seen(bob)[0]!.seq)
        .map((e) => [e.seq, e.type, e.agent, e.taskId]),
    );
  });

  it('run_worker: an anonymous worker is hidden, a named one shown; both get the commander tools minus orchestration; a failing worker is an error result and the turn goes on', async () => {
    bed.fake.setHandler((req): FakeReply => {
      const text = textOf(req);
      if (systemOf(req).includes('You are a worker')) {
        if (text.includes('TASK-FAIL')) return { status: 400, errorBody: { error: { message: 'WORKER-PROVIDER-FAILURE', type: 'invalid_request_error' } } };
        return { text: text.includes('TASK-NAMED') ? 'NAMED-DONE' : 'HIDDEN-DONE' };
      }
      if (toolResults(req).length === 0)
        return {
          toolCalls: [
            { name: 'run_worker', args: { task: 'TASK-HIDDEN count files' } },
            { name: 'run_worker', args: { task: 'TASK-NAMED list todos', name: 'scout' } },
            { name: 'run_worker', args: { task: 'TASK-FAIL break' } },
          ],
        };
      return { text: 'Workers done.' };
    });
    bed.server = await startTestServer({ env: bed.env() });
    const { client: alice, sessionId } = await driver();
    await alice.ok('session:send', { sessionId, text: 'split it up' });
    const end = await alice.waitFor((e) => e.type === 'turn_done' && e.agent === 'commander');
    expect(end).toMatchObject({ outcome: 'answered' });

    const started = ofType(alice.persisted(), 'agent_started');
    expect(started.map((e) => [e.agent, e.visible])).toEqual([
      ['worker-1', false],
      ['scout', true],
      ['worker-2', false],
    ]);
    const workerReq = bed.fake.requests.find((r) => textOf(r).includes('TASK-HIDDEN'))!;
    const commanderReq = bed.fake.requests[0]!;
    expect(toolNames(workerReq)).toEqual(toolNames(commanderReq).filter((n) => n !== 'run_worker'));
    expect(toolNames(commanderReq)).not.toContain('dispatch_to');

    const results = toolResults(bed.fake.requests.at(-1)!);
    expect(results[0]).toBe('HIDDEN-DONE');
    expect(results[1]).toBe('NAMED-DONE');
    expect(results[2]).toContain('worker-2');
    expect(results[2]).toContain('HTTP 400');
    const failed = ofType(alice.persisted(), 'agent_done').find((e) => e.agent === 'worker-2');
    expect(failed).toMatchObject({ isError: true });
  });

  it('hand-off: the floor goes to an interactive agent, answers un-addressed messages, a stray <handback inside prose does not count, a strict one returns the floor and the commander resumes its ledger; the floor survives a restart', async () => {
    bed.fake.setHandler((req): FakeReply => {
      const system = systemOf(req);
      const text = textOf(req);
      if (system.includes('You are a worker')) return { status: 400, errorBody: { error: { message: 'LEDGER-FAILURE', type: 'invalid_request_error' } } };
      if (system.includes('ROLE-PAIR')) {
        const users = messagesOf(req).filter((m) => m.role === 'user');
        const last = String(users.at(-1)?.content ?? '');
        if (last.includes('PAIR-INTRO')) return { text: 'Hi, I am pair.' };
        if (last.includes('PAIR-Q1')) return { text: 'I will say <handback /> when done, not yet.' };
        if (last.includes('PAIR-Q2')) return { text: 'All done here.\n<handback />' };
        return { text: `pair heard: ${last}` };
      }
      if (system.includes('ROLE-REVIEWER')) return { text: 'REVIEWED-BY-REVIEWER' };
      if (text.includes('handed the conversation back')) return { text: 'COMMANDER-RESUMED' };
      if (toolResults(req).length === 0)
        return {
          toolCalls: [
            { name: 'run_worker', args: { task: 'TASK-LEDGER prepare' } },
            { name: 'hand_off_to', args: { agent: 'pair', message: 'PAIR-INTRO the user wants to pair' } },
          ],
        };
      return { text: 'SYNTHESIS-SHOULD-NOT-HAPPEN' };
    });
    bed.server = await startTestServer({ env: bed.env() });
    const workspace = bed.server.workspace.path;
    defineAgent(workspace, 'pair', 'description: Pairs with the user.\ninteractive: true', 'ROLE-PAIR You pair program.');
    defineAgent(workspace, 'reviewer', 'description: Reviews diffs.', 'ROLE-REVIEWER');
    const { client: alice, sessionId } = await driver();

    await alice.ok('session:send', { sessionId, text: 'let us pair' });
    await alice.waitFor((e) => e.type === 'turn_done' && e.agent === 'pair');
    expect(JSON.stringify(bed.fake.requests.map((r) => r.body))).not.toContain('SYNTHESIS');
    expect(bed.fake.requests.filter((r) => systemOf(r).includes('Agents you can delegate to'))).toHaveLength(1);
    expect(ofType(alice.persisted(), 'floor_changed').map((e) => [e.agent, e.by])).toEqual([['pair', 'commander']]);
    let { sessions } = await alice.ok('session:list', {});
    expect(sessions.find((s) => s.id === sessionId)?.floor).toBe('pair');
    expect(sessions.find((s) => s.id === sessionId)?.agents).toEqual([
      { name: 'pair', description: 'Pairs with the user.', interactive: true },
      { name: 'reviewer', description: 'Reviews diffs.', interactive: false },
    ]);

    // An un-addressed message goes to the floor holder; a marker inside prose hands nothing back.
    const turnsDone = () => ofType(alice.persisted(), 'turn_done').length;
    let before = turnsDone();
    await alice.ok('session:send', { sessionId, text: 'PAIR-Q1 how is it going?' });
    await alice.waitFor(() => turnsDone() > before);
    expect(ofType(alice.persisted(), 'turn_done').at(-1)).toMatchObject({ agent: 'pair' });
    expect(ofType(alice.persisted(), 'floor_changed')).toHaveLength(1);

    // An unknown @name is refused with the names there are; @reviewer answers without taking the floor.
    const unknown = await alice.request('session:send', { sessionId, text: '@ghost hello' });
    expect(unknown).toMatchObject({ ok: false, error: { code: 'bad_request' } });
    expect(JSON.stringify(unknown)).toContain('@reviewer');
    before = turnsDone();
    await alice.ok('session:send', { sessionId, text: '@reviewer look at REVIEW-NOW' });
    await alice.waitFor(() => turnsDone() > before);
    expect(ofType(alice.persisted(), 'assistant_text').at(-1)).toMatchObject({ agent: 'reviewer', text: 'REVIEWED-BY-REVIEWER' });
    expect(ofType(alice.persisted(), 'user_message').at(-1)).toMatchObject({ agent: 'reviewer', text: 'look at REVIEW-NOW' });
    expect(ofType(alice.persisted(), 'floor_changed')).toHaveLength(1);

    // Restart: the floor is still pair's.
    const dataDir = bed.server.dataDir;
    await bed.server.stop();
    bed.server = await startTestServer({ env: bed.env(), dataDir });
    const carol = await bed.server.connect('carol');
    ({ sessions } = await carol.ok('session:list', {}));
    expect(sessions.find((s) => s.id === sessionId)?.floor).toBe('pair');
    await carol.ok('session:attach', { sessionId, role: 'driver' });

    before = ofType(carol.persisted(), 'turn_done').length;
    await carol.ok('session:send', { sessionId, text: 'PAIR-Q2 finish up' });
    const resumed = await carol.waitFor((e) => e.type === 'assistant_text' && e.text === 'COMMANDER-RESUMED');
    expect(resumed).toMatchObject({ agent: 'commander' });
    expect(ofType(carol.persisted(), 'floor_changed').at(-1)).toMatchObject({ agent: 'commander', by: 'pair' });
    // The commander was told what happened and what is unfinished: the worker that failed.
    const resumeRequest = bed.fake.requests.find((r) => textOf(r).includes('handed the conversation back'))!;
    expect(textOf(resumeRequest)).toContain('TASK-LEDGER');
    expect(textOf(resumeRequest)).toMatch(/TASK-LEDGER prepare — failed: .*HTTP 400/);
    expect(textOf(resumeRequest)).toContain('PAIR-Q1');
    ({ sessions } = await carol.ok('session:list', {}));
    expect(sessions.find((s) => s.id === sessionId)?.floor).toBe('commander');
  });

  it('Ctrl-C while two workers run commands stops both, kills their commands, and says what was stopped; the permission dialog named each worker', async () => {
    const marker = uniqueMarker();
    bed.fake.setHandler((req): FakeReply => {
      const text = textOf(req);
      if (systemOf(req).includes('You are a worker')) {
        if (toolResults(req).length === 0) return { toolCalls: [{ name: 'run_command', args: { command: `echo started-${marker}; sleep ${marker}` } }] };
        return { text: 'finished' };
      }
      if (toolResults(req).length === 0 && !text.includes('after cancel'))
        return {
          toolCalls: [
            { name: 'run_worker', args: { task: 'TASK-ONE', name: 'one' } },
            { name: 'run_worker', args: { task: 'TASK-TWO', name: 'two' } },
          ],
        };
      return { text: 'ok' };
    });
    bed.server = await startTestServer({ env: bed.env() });
    const { client: alice, sessionId } = await driver();
    alice.approveAll(sessionId);
    await alice.ok('session:send', { sessionId, text: 'run both' });
    // Both commands print, so both are running.
    const printed = (agent: string) => (e: SessionEvent) => e.type === 'command_output' && e.agent === agent && e.data.includes(`started-${marker}`);
    await alice.waitFor(printed('one'));
    await alice.waitFor(printed('two'));
    const asks = ofType(alice.persisted(), 'permission_request');
    expect(asks.map((e) => e.agent).sort()).toEqual(['one', 'two']);
    expect(
      ofType(alice.persisted(), 'permission_resolved')
        .map((e) => e.agent)
        .sort(),
    ).toEqual(['one', 'two']);

    await alice.ok('session:cancel', { sessionId });
    await alice.waitFor((e) => e.type === 'turn_cancelled' && e.agent === 'commander');
    for (const agent of ['one', 'two']) {
      const done = await alice.waitFor((e) => e.type === 'agent_done' && e.agent === agent);
      expect(done).toMatchObject({ isError: true, result: expect.stringContaining('stopped') });
    }
    // No process of either command is left.
    for (let i = 0; processesMatching(String(marker)).length > 0 && i < 500; i++) await new Promise((r) => setTimeout(r, 20));
    expect(processesMatching(String(marker))).toEqual([]);
    // One audit record per call, each naming the agent that made it.
    const { records } = await alice.ok('audit:query', { sessionId });
    const commands = records.filter((r) => r.tool === 'run_command');
    expect(commands.map((r) => [r.agent, r.outcome]).sort()).toEqual([
      ['one', 'cancelled'],
      ['two', 'cancelled'],
    ]);
    expect(records.filter((r) => r.tool === 'run_worker').map((r) => r.agent)).toEqual(['commander', 'commander']);
  });
});
