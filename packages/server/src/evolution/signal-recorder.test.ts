import { describe, expect, it } from 'vitest';
import type { SessionEvent } from '@tandem/shared';
import type { AgentDefinition, EvolutionSignal } from '@tandem/core';
import { SignalRecorder } from './signal-recorder.js';

const definition = (name: string, extra: Partial<AgentDefinition> = {}): AgentDefinition => ({
  name,
  description: 'd',
  interactive: true,
  prompt: 'p',
  file: `/ws/.tandem/agents/${name}.md`,
  scope: 'project',
  ...extra,
});

function harness() {
  const recorded: Array<{ agent: string; signal: EvolutionSignal }> = [];
  const recorder = new SignalRecorder(
    (agent, signal) => recorded.push({ agent, signal }),
    (agent) => new Set(agent === 'learner' ? ['own-skill'] : []),
    () => Date.parse('2026-01-02T03:04:05Z'),
  );
  const agents = [definition('learner', { evolve: true }), definition('still'), definition('outside', { evolve: true, command: 'claude -p {task}' })];
  const session = { id: 's1', meta: { cwd: '/ws' }, agents: { definitions: () => agents } };
  let seq = 0;
  const feed = (body: Record<string, unknown>) =>
    recorder.observe(session, { sessionId: 's1', seq: ++seq, ts: '2026-01-02T03:04:05Z', ...body } as unknown as SessionEvent);
  return { recorded, feed };
}

describe('SignalRecorder', () => {
  it('records recovery from a real tool error, a long turn, and a failed turn after reading its own skill', () => {
    const { recorded, feed } = harness();
    feed({ type: 'user_message', text: 'fix the build', by: 'alice', mode: 'turn', agent: 'learner' });
    feed({ type: 'turn_started', turnId: 't1', model: 'm', agent: 'learner' });
    feed({
      type: 'tool_result',
      turnId: 't1',
      callId: 'c1',
      tool: 'run_command',
      isError: true,
      output: 'tsc: 3 errors',
      durationMs: 1,
      outcome: 'error',
      agent: 'learner',
    });
    feed({
      type: 'tool_result',
      turnId: 't1',
      callId: 'c2',
      tool: 'run_command',
      isError: true,
      output: 'denied',
      durationMs: 1,
      outcome: 'denied',
      agent: 'learner',
    });
    feed({ type: 'turn_done', turnId: 't1', iterations: 12, outcome: 'answered', agent: 'learner' });
    feed({ type: 'turn_started', turnId: 't2', model: 'm', agent: 'learner' });
    feed({ type: 'tool_call', turnId: 't2', iteration: 1, callId: 'c3', tool: 'read_skill', args: { name: 'own-skill' }, danger: 'safe', agent: 'learner' });
    feed({ type: 'turn_done', turnId: 't2', iterations: 3, outcome: 'max_iterations', agent: 'learner' });
    expect(recorded.map((r) => [r.agent, r.signal.kind, r.signal.weight])).toEqual([
      ['learner', 'error_recovery', 3],
      ['learner', 'complex_task', 1],
      ['learner', 'skill_ineffective', 2],
    ]);
    expect(recorded[0]?.signal).toMatchObject({
      sessionId: 's1',
      workspace: '/ws',
      at: '2026-01-02T03:04:05.000Z',
      detail: expect.stringContaining('tsc: 3 errors'),
    });
    expect(recorded[0]?.signal.detail).not.toContain('denied');
  });

  it('counts a correction only after the agent answered, and never for agents without evolve, external agents or the commander', () => {
    const { recorded, feed } = harness();
    feed({ type: 'user_message', text: 'no, use tabs', by: 'alice', mode: 'turn', agent: 'learner' });
    feed({ type: 'assistant_text', turnId: 't1', iteration: 1, text: 'done with spaces', agent: 'learner' });
    feed({ type: 'user_message', text: 'thanks, looks good', by: 'alice', mode: 'turn', agent: 'learner' });
    feed({ type: 'user_message', text: "No, that's not what I asked", by: 'alice', mode: 'turn', agent: 'learner' });
    for (const agent of ['still', 'outside', 'commander']) {
      feed({ type: 'assistant_text', turnId: 'tx', iteration: 1, text: 'answer', agent });
      feed({ type: 'user_message', text: 'no, wrong', by: 'alice', mode: 'turn', agent });
      feed({ type: 'turn_started', turnId: `t-${agent}`, model: 'm', agent });
      feed({ type: 'turn_done', turnId: `t-${agent}`, iterations: 30, outcome: 'answered', agent });
    }
    expect(recorded.map((r) => [r.agent, r.signal.kind])).toEqual([['learner', 'user_correction']]);
    expect(recorded[0]?.signal.detail).toContain('done with spaces');
  });
});
