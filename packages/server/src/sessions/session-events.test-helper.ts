import type { SessionEvent } from '@tandem/shared';

/**
 * A session's events: turns with tool calls (the commander's and a defined agent's after a floor
 * change), a worker's events, grants, presence, a job, questions answered and one left open, and
 * (with `openTurn`) a turn still running at the end.
 */
export function sessionEvents(turns: number, openTurn: boolean, from: { sessionId?: string; seq?: number } = {}): SessionEvent[] {
  const events: Array<Record<string, unknown>> = from.seq ? [] : [{ type: 'session_info', title: 't', cwd: '/w', model: 'm/m' }];
  for (let t = 1; t <= turns; t++) {
    const turnId = `t${t}`;
    const agent = t % 3 === 0 ? { agent: 'reviewer' } : {};
    if (t % 3 === 0) events.push({ type: 'floor_changed', by: 'ana', agent: 'reviewer' });
    if (t % 3 === 1 && t > 1) events.push({ type: 'floor_changed', by: 'reviewer' });
    events.push({ type: 'user_message', text: `q${t}`, by: 'ana', mode: 'turn', ...agent });
    events.push({ type: 'turn_started', turnId, model: 'm/m', ...agent });
    events.push({ type: 'presence', clients: t % 2 ? [{ id: 'c', name: 'ana', role: 'driver' }] : [] });
    for (let i = 1; i <= 4; i++) {
      const callId = `${turnId}-c${i}`;
      events.push({ type: 'tool_call', turnId, iteration: i, callId, tool: 'read_file', args: { path: `f${i}` }, danger: 'safe', ...agent });
      if (i === 2) {
        events.push({
          type: 'permission_request',
          requestId: `${turnId}-r`,
          callId,
          tool: 'read_file',
          args: {},
          danger: 'dangerous',
          expiresAt: 'x',
          ...agent,
        });
        events.push({ type: 'permission_resolved', requestId: `${turnId}-r`, decision: 'allow_once', by: 'ana', ...agent });
      }
      events.push({
        type: 'tool_result',
        turnId,
        callId,
        tool: 'read_file',
        isError: false,
        output: `body ${t}.${i} é`,
        durationMs: 1,
        outcome: 'ok',
        ...agent,
      });
    }
    if (t % 4 === 0) {
      events.push({ type: 'agent_started', taskId: `k${t}`, parent: 'commander', task: 'look', visible: false, agent: 'worker-1' });
      events.push({ type: 'turn_started', turnId: `w${t}`, model: 'm/m', agent: 'worker-1', taskId: `k${t}` });
      events.push({ type: 'assistant_text', turnId: `w${t}`, iteration: 1, text: 'worker', agent: 'worker-1', taskId: `k${t}` });
      events.push({ type: 'agent_done', taskId: `k${t}`, isError: false, result: 'ok', agent: 'worker-1' });
      events.push({ type: 'job_started', jobId: `j${t}`, command: 'sleep 1', logPath: '/tmp/j' });
    }
    if (t % 5 === 0) events.push({ type: 'sandbox_granted', path: `/granted/${t}`, by: 'ana' });
    if (t === 7)
      events.push({ type: 'permission_request', requestId: 'dangling', callId: 'x', tool: 'run_command', args: {}, danger: 'dangerous', expiresAt: 'x' });
    events.push({ type: 'context_usage', usedTokens: t, windowTokens: 100, percent: t });
    events.push({ type: 'assistant_text', turnId, iteration: 5, text: `answer ${t}`, ...agent });
    if (t % 6 === 0) events.push({ type: 'turn_cancelled', turnId, ...agent });
    else events.push({ type: 'turn_done', turnId, iterations: 5, outcome: 'answered', ...agent });
  }
  if (openTurn) {
    events.push({ type: 'user_message', text: 'last', by: 'ana', mode: 'turn' });
    events.push({ type: 'turn_started', turnId: 'open', model: 'm/m' });
    events.push({ type: 'tool_call', turnId: 'open', iteration: 1, callId: 'open-c', tool: 'read_file', args: {}, danger: 'safe' });
  }
  return events.map(
    (e, i) => ({ sessionId: from.sessionId ?? 's', seq: (from.seq ?? 0) + i + 1, ts: `2026-12-01T00:00:${String(i).padStart(6, '0')}Z`, ...e }) as SessionEvent,
  );
}

/** The log lines of `events`, as the writer writes them. */
export const sessionLines = (events: SessionEvent[]) => events.map((e) => `${JSON.stringify(e)}\n`).join('');
