import { describe, expect, it } from 'vitest';
import type { ModelClient } from '@tandem/ai';
import type { RunCommandOptions } from '../ports/command-runner.js';
import type { CommandCheck } from '../ports/command-check.js';
import { runExternalTurn } from './external-turn.js';
import { collect, ofType, turnOptions } from './turn-harness.test-helper.js';

/**
 * An external agent's command is one of the engine's own commands: it passes the host's command
 * check (the coding tools' blacklist in the server) inside the call as well as at the gate, and a
 * host that gives no check runs no command at all.
 */
const noModel = {} as ModelClient;

function externalTurn(services: { commandCheck?: CommandCheck }) {
  const ran: RunCommandOptions[] = [];
  const runner = {
    run: async (o: RunCommandOptions) => {
      ran.push(o);
      return { exitCode: 0, output: 'done by the agent\n', timedOut: false };
    },
  };
  const options = turnOptions({ model: noModel, tools: [], runner, services, userText: 'fix it' });
  return { ran, events: collect(runExternalTurn(options, { agent: 'helper', command: 'my-agent --task {task}' })) };
}

describe('an external agent turn and the host command check', () => {
  it('asks the check with the command line and the workspace, then runs the command', async () => {
    const asked: Array<{ command: string; workspace?: string }> = [];
    const { ran, events } = externalTurn({
      commandCheck: (command, where) => {
        asked.push({ command, workspace: where.workspace });
        return { blocked: false };
      },
    });
    const all = await events;
    expect(asked).toEqual([{ command: expect.stringContaining('my-agent --task'), workspace: '/work' }]);
    expect(ran).toHaveLength(1);
    expect(ofType(all, 'turn_done')).toHaveLength(1);
  });

  it('a command the check refuses never runs and the turn ends with the reason', async () => {
    const { ran, events } = externalTurn({ commandCheck: () => ({ blocked: true, message: 'refused: my-agent is on the list' }) });
    const all = await events;
    expect(ran).toEqual([]);
    expect(ofType(all, 'agent_error')[0]).toMatchObject({ message: expect.stringContaining('refused: my-agent is on the list') });
  });

  it('a host with no command check runs nothing (fails closed) and says what to give', async () => {
    const { ran, events } = externalTurn({});
    const all = await events;
    expect(ran).toEqual([]);
    expect(ofType(all, 'agent_error')[0]).toMatchObject({ message: expect.stringContaining('no command check') });
  });
});
