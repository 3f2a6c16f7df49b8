import { access, mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeClock, makeTempDir, type TempDir } from '@tandem/testkit';
import type { ModelClient } from '@tandem/ai';
import { runTurn, type AnyTool, type GateCall, type ToolGate } from '@tandem/core';
import { openaiClient, fakeModelServerPerTest } from '@tandem/ai/testing/fake-server';
import { collect, echoTool, hangTool, ofType, turnOptions } from '@tandem/core/testing/turn-harness';
import { createPathSandbox } from '../sandbox/index.js';
import { createFileBaselines } from './file-baselines.js';
import { writeFileTool } from './write-file.js';

/**
 * The per-call pipeline's order (ARCHITECTURE "One turn, end to end"; issue 10): schema →
 * path sandbox → the gate's screen (blacklist, mode, read-only) → tool_call → the gate's check
 * (may ask) → runner; and the outcome every result carries (requirements U6). Real files, the real
 * path sandbox and write_file, the openai SDK against the fake model server.
 */
const fake = fakeModelServerPerTest();
const openai = (): ModelClient => openaiClient(fake.server, 'fake-gpt');
let root: TempDir;
let workspace: string;

beforeEach(async () => {
  root = await makeTempDir('tandem-pipeline-');
  workspace = path.join(root.path, 'ws');
  await mkdir(workspace);
});
afterEach(async () => {
  await root.cleanup();
});

/** A gate that records each step it is asked and answers from `verdicts`. */
function recordingGate(
  screen?: (call: GateCall) => { danger: GateCall['danger']; reason?: string; refusal?: { reason: string; outcome: 'refused' | 'blocked' } },
) {
  const steps: string[] = [];
  const gate: ToolGate = {
    check: async (call) => {
      steps.push(`check ${call.tool}`);
      return { allow: true };
    },
    ...(screen
      ? {
          screen: async (call: GateCall) => {
            steps.push(`screen ${call.tool}${call.paths ? ` ${call.paths.map((p) => path.relative(workspace, p)).join(',')}` : ''}`);
            return screen(call);
          },
        }
      : {}),
  };
  return { gate, steps };
}

function options(gate: ToolGate, tools: AnyTool[] = [writeFileTool as AnyTool, echoTool as AnyTool], extra = {}) {
  return turnOptions({
    model: openai(),
    tools,
    gate,
    cwd: workspace,
    paths: createPathSandbox({ workspace, dataDir: path.join(root.path, 'data'), home: path.join(root.path, 'home') }),
    baselines: createFileBaselines(),
    ...extra,
  });
}

const exists = (file: string) =>
  access(file).then(
    () => true,
    () => false,
  );

describe('the call pipeline', () => {
  it('refuses a path outside the workspace before the gate: no screen, no check (no question), nothing written', async () => {
    const { gate, steps } = recordingGate(() => ({ danger: 'medium' }));
    fake.server.enqueue({ toolCalls: [{ id: 'w', name: 'write_file', args: { path: '../escape.txt', content: 'x' } }] }, { text: 'ok' });
    const events = await collect(runTurn(options(gate)));
    expect(steps).toEqual([]);
    expect(ofType(events, 'tool_call')[0]).toMatchObject({ callId: 'w', reason: expect.stringContaining('Refused by the path sandbox') });
    expect(ofType(events, 'tool_result')[0]).toMatchObject({ isError: true, outcome: 'refused', output: expect.stringContaining('parent_escape') });
    expect(await exists(path.join(root.path, 'escape.txt'))).toBe(false);
  });

  it("hands the gate the resolved paths; screens, announces with the screen's reason, then checks", async () => {
    const { gate, steps } = recordingGate(() => ({ danger: 'medium', reason: 'auto-edit mode: a file edit inside the workspace' }));
    fake.server.enqueue({ toolCalls: [{ id: 'w', name: 'write_file', args: { path: 'src/a.txt', content: 'hello' } }] }, { text: 'ok' });
    const events = await collect(runTurn(options(gate)));
    expect(steps).toEqual(['screen write_file src/a.txt,src/a.txt.bak', 'check write_file']);
    // The tool_call carries the screen's reason: it was announced after the screen.
    expect(ofType(events, 'tool_call')[0]).toMatchObject({ danger: 'medium', reason: 'auto-edit mode: a file edit inside the workspace' });
    expect(ofType(events, 'tool_result')[0]).toMatchObject({ isError: false, outcome: 'ok' });
    expect(await readFile(path.join(workspace, 'src/a.txt'), 'utf8')).toBe('hello');
  });

  it('ends a call the screen refuses without the check, saying why on the tool_call and the result', async () => {
    const { gate, steps } = recordingGate((call) =>
      call.tool === 'echo' ? { danger: 'safe', refusal: { reason: 'Refused: read-only mode.', outcome: 'refused' } } : { danger: 'medium' },
    );
    fake.server.enqueue({ toolCalls: [{ id: 'e', name: 'echo', args: { text: 'hi' } }] }, { text: 'ok' });
    const events = await collect(runTurn(options(gate)));
    expect(steps).toEqual(['screen echo']);
    expect(ofType(events, 'tool_call')[0]).toMatchObject({ reason: 'Refused: read-only mode.' });
    expect(ofType(events, 'tool_result')[0]).toMatchObject({ isError: true, outcome: 'refused', output: 'Refused: read-only mode.' });
  });

  it("carries the gate's decision on the events: the screen's on the tool_call, the check's on the tool_result, handing the screen back to the check", async () => {
    const handedBack: unknown[] = [];
    const token = { mine: true };
    const gate: ToolGate = {
      screen: async (call) =>
        call.tool === 'echo'
          ? { danger: 'safe', reason: 'safe tool', allowed: { decision: 'safe', decidedBy: 'system' }, held: token }
          : { danger: 'medium', held: token },
      check: async (call) => {
        handedBack.push(call.screened?.held);
        return call.tool === 'echo' ? { allow: true, decision: 'safe', decidedBy: 'system' } : { allow: true, decision: 'allow_once', decidedBy: 'ana' };
      },
    };
    fake.server.enqueue(
      {
        toolCalls: [
          { id: 'e', name: 'echo', args: { text: 'hi' } },
          { id: 'w', name: 'write_file', args: { path: 'b.txt', content: 'x' } },
          { id: 'bad', name: 'write_file', args: { path: 42 } },
        ],
      },
      { text: 'ok' },
    );
    const events = await collect(runTurn(options(gate)));
    expect(handedBack).toEqual([token, token]);
    const calls = ofType(events, 'tool_call');
    expect(calls.find((c) => c.callId === 'e')).toMatchObject({ decision: 'safe', decidedBy: 'system' });
    expect(calls.find((c) => c.callId === 'w')?.decision).toBeUndefined();
    const results = ofType(events, 'tool_result');
    expect(results.find((r) => r.callId === 'e')).toMatchObject({ decision: 'safe', decidedBy: 'system' });
    expect(results.find((r) => r.callId === 'w')).toMatchObject({ decision: 'allow_once', decidedBy: 'ana', outcome: 'ok' });
    // No gate saw the call with bad arguments.
    expect(results.find((r) => r.callId === 'bad')).toMatchObject({ decision: 'not_checked', outcome: 'error' });
    expect(results.find((r) => r.callId === 'bad')?.decidedBy).toBeUndefined();
  });

  it('never screens a call with bad arguments (schema first); its outcome is error', async () => {
    const { gate, steps } = recordingGate(() => ({ danger: 'medium' }));
    fake.server.enqueue({ toolCalls: [{ id: 'w', name: 'write_file', args: { path: 42 } }] }, { text: 'ok' });
    const events = await collect(runTurn(options(gate)));
    expect(steps).toEqual([]);
    expect(ofType(events, 'tool_result')[0]).toMatchObject({ isError: true, outcome: 'error', output: expect.stringContaining('Invalid arguments') });
  });

  it('marks a gate refusal denied (or as the gate says) and a tool timeout timeout', async () => {
    const clock = new FakeClock();
    const gate: ToolGate = {
      check: async (call) => (call.tool === 'echo' ? { allow: false, reason: 'denied by ana (deny_once)' } : { allow: true }),
    };
    fake.server.enqueue(
      { toolCalls: [{ id: 'e', name: 'echo', args: { text: 'x' } }] },
      { toolCalls: [{ id: 'h', name: 'hang', args: {} }] },
      { text: 'done' },
    );
    const gen = collect(runTurn(options(gate, [echoTool as AnyTool, hangTool as AnyTool], { clock, limits: { toolTimeoutMs: 1000 } })));
    await clock.waitForSleepers(1);
    await clock.advance(1000);
    const events = await gen;
    expect(ofType(events, 'tool_result').map((r) => [r.callId, r.outcome])).toEqual([
      ['e', 'denied'],
      ['h', 'timeout'],
    ]);
  });
});
