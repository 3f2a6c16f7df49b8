import { afterEach, describe, expect, it } from 'vitest';
import type { EngineEvent, TurnOptions } from '@tandem/core';
import { idleModelFactory } from './scripted-engine.js';
import { startTestServer, tempDir, type TestServer } from './server-harness.js';

let server: TestServer;
afterEach(async () => {
  await server.stop();
});

/** A loop that runs one command through the session's real pty runner and reports it. */
function commandLoop(command: string) {
  return (opts: TurnOptions): AsyncIterable<EngineEvent> =>
    (async function* () {
      yield { type: 'turn_started', turnId: opts.turnId, model: opts.model.id };
      const chunks: EngineEvent[] = [];
      const { environment } = opts;
      const result = await environment.runner.run({
        command,
        cwd: environment.cwd,
        timeoutMs: 10_000,
        signal: opts.control.signal,
        callId: `call-${opts.turnId}`,
        sessionId: environment.sessionId,
        onData: (data) => chunks.push({ type: 'command_output', callId: `call-${opts.turnId}`, data }),
      });
      yield* chunks;
      yield { type: 'assistant_text', turnId: opts.turnId, iteration: 1, text: result.output.trim() };
      yield { type: 'turn_done', turnId: opts.turnId, iterations: 1, outcome: 'answered' };
    })();
}

describe('several sessions at once', () => {
  it('run their turns at the same time, each in its own workspace, each seen only by its own clients', async () => {
    // Each command waits until both have started: run one after the other, neither would finish.
    const meeting = (await tempDir('tandem-meet-')).path;
    const rendezvous = `touch ${meeting}/$(basename "$PWD"); until [ "$(ls ${meeting} | wc -l)" -ge 2 ]; do sleep 0.05; done; pwd`;
    server = await startTestServer({ engine: { runTurn: commandLoop(rendezvous) }, modelFactory: idleModelFactory });
    const dirA = (await tempDir('tandem-a-')).path;
    const dirB = (await tempDir('tandem-b-')).path;
    const alice = await server.connect('alice');
    const bob = await server.connect('bob');
    const { session: a } = await alice.ok('session:create', { cwd: dirA });
    const { session: b } = await bob.ok('session:create', { cwd: dirB });
    await alice.ok('session:attach', { sessionId: a.id, role: 'driver' });
    await bob.ok('session:attach', { sessionId: b.id, role: 'driver' });
    // Commands run in the OS sandbox, whose /tmp is private to each command: the meeting
    // directory is shared only because both drivers grant it.
    await alice.ok('sandbox:grant', { sessionId: a.id, path: meeting });
    await bob.ok('sandbox:grant', { sessionId: b.id, path: meeting });

    await Promise.all([alice.ok('session:send', { sessionId: a.id, text: 'where?' }), bob.ok('session:send', { sessionId: b.id, text: 'where?' })]);
    const list = await alice.ok('session:list', {});
    expect(list.sessions.map((s) => s.status)).toEqual(['running', 'running']);
    const [doneA, doneB] = await Promise.all([alice.waitFor((e) => e.type === 'assistant_text'), bob.waitFor((e) => e.type === 'assistant_text')]);
    expect(doneA.type === 'assistant_text' && doneA.text).toBe(dirA);
    expect(doneB.type === 'assistant_text' && doneB.text).toBe(dirB);
    expect(alice.events.every((e) => e.sessionId === a.id)).toBe(true);
    expect(bob.events.every((e) => e.sessionId === b.id)).toBe(true);
  });
});
