import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, type TempDir } from '@tandem/testkit';
import type { Message } from '@tandem/ai';
import { runTurn } from '../loop/run-turn.js';
import { fakeModelServerPerTest, openaiClient } from '@tandem/ai/testing/fake-server';
import { collect, turnOptions, type TurnSetup } from '../loop/turn-harness.test-helper.js';
import type { TurnOptions } from '../loop/types.js';
import { memoryTools } from './memory-tools.js';
import { turnMemory } from './turn-memory.js';
import { WorkspaceMemory } from './workspace-memory.js';

const fake = fakeModelServerPerTest();
let dir: TempDir;
beforeEach(async () => {
  dir = await makeTempDir('tandem-turn-memory-');
});
afterEach(async () => {
  await dir.cleanup();
});

const SYSTEM = 'You are a test agent.';

function options(wm: WorkspaceMemory, conversation: Message[], userText: string, over: Partial<TurnSetup> = {}): TurnOptions {
  return turnOptions({
    turnId: `t-${userText.length}`,
    conversation,
    userText,
    system: SYSTEM,
    model: openaiClient(fake.server, 'main'),
    tools: memoryTools,
    cwd: dir.path,
    services: { memory: wm },
    memory: turnMemory(wm),
    ...over,
  });
}

const systemOf = (i: number): string => {
  const first = fake.server.requests[i]!.body.messages[0] as { role: string; content: string };
  expect(first.role).toBe('system');
  return first.content;
};

describe('memory in the system prompt (frozen per turn)', () => {
  it('carries the note relevant to the message, and the same prompt for every request of the turn', async () => {
    const wm = await WorkspaceMemory.open({ dataDir: dir.path, workspace: dir.path });
    expect((await wm.saveItem('note', 'The release script lives in scripts/release.sh and needs GPG signing.')).ok).toBe(true);
    expect((await wm.saveItem('note', 'Lunch orders go to the kitchen channel.')).ok).toBe(true);
    await wm.store.writeMemory('# Memory\n- The project uses pnpm workspaces.');

    fake.server.script(
      'main',
      { toolCalls: [{ name: 'save_note', args: { kind: 'note', text: 'The release script was moved to tools/release.sh on request of the user.' } }] },
      { text: 'Saved.' },
    );
    const conversation: Message[] = [];
    const events = await collect(runTurn(options(wm, conversation, 'How do I run the release script?')));

    expect(events.filter((e) => e.type === 'tool_result')).toEqual([expect.objectContaining({ tool: 'save_note', isError: false })]);
    const first = systemOf(0);
    expect(first.startsWith(`${SYSTEM}\n\n# Memory`)).toBe(true);
    expect(first).toContain('The project uses pnpm workspaces.');
    expect(first).toContain('scripts/release.sh and needs GPG signing');
    expect(first).not.toContain('tools/release.sh');
    // The note written during the turn is on disk and recallable, but the prompt stays frozen.
    expect((await wm.recall('release script')).items.map((r) => r.item.text)).toContain(
      'The release script was moved to tools/release.sh on request of the user.',
    );
    expect(systemOf(1)).toBe(first);

    // The next turn sees it.
    fake.server.script('main', { text: 'Use tools/release.sh.' });
    await collect(runTurn(options(wm, conversation, 'And where is the release script now?')));
    expect(systemOf(2)).toContain('tools/release.sh');
  });

  it('sends the plain system prompt when there is no memory, and when memory cannot be read', async () => {
    const wm = await WorkspaceMemory.open({ dataDir: dir.path, workspace: dir.path });
    fake.server.script('main', { text: 'Hi.' }, { text: 'Hi again.' });
    await collect(runTurn(options(wm, [], 'hello')));
    expect(systemOf(0)).toBe(SYSTEM);

    const broken = { promptSection: async () => Promise.reject(new Error('disk on fire')) };
    const events = await collect(runTurn(options(wm, [], 'hello', { memory: broken })));
    expect(systemOf(1)).toBe(SYSTEM);
    expect(events.at(-1)).toMatchObject({ type: 'turn_done', outcome: 'answered' });
  });
});
