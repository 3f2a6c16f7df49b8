import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FakeReply, FakeRequest } from '@tandem/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tandemShellLine } from './cli-runner.js';
import { startServerFixture, type ServerFixture } from './server-fixture.js';
import { Tmux } from './tmux.js';

// The TUI showing a commander and its workers through real turns: a real server (in this
// process), the fake model answering each agent by a marker in its own system prompt or task,
// and `tandem attach` as driver and viewer inside tmux. The reviewer's reply is held until the
// screens have shown it running, so the status line is read while it works.

let fixture: ServerFixture;
const tmux = new Tmux();
const SIZE = { columns: 160, rows: 50 };

type Message = { role: string; content?: unknown };
const messagesOf = (req: FakeRequest): Message[] => (req.body?.messages ?? []) as Message[];
const systemOf = (req: FakeRequest): string => String(messagesOf(req).find((m) => m.role === 'system')?.content ?? '');
/** The last user message, and how many tool results came after it (this turn's). */
const lastUserOf = (req: FakeRequest): string => JSON.stringify(messagesOf(req).findLast((m) => m.role === 'user')?.content ?? '');
const toolResults = (req: FakeRequest): number => {
  const messages = messagesOf(req);
  const last = messages.findLastIndex((m) => m.role === 'user');
  return messages.slice(last + 1).filter((m) => m.role === 'tool').length;
};

function transcriptOf(screen: string): string {
  return screen.trimEnd().split('\n').slice(0, -3).join('\n').trimEnd();
}

async function defineAgent(name: string, frontmatter: string, prompt: string): Promise<void> {
  const dir = join(fixture.project.path, '.tandem', 'agents');
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, `${name}.md`), `---\nname: ${name}\n${frontmatter}\n---\n${prompt}\n`);
}

let releaseReviewer: () => void = () => undefined;

beforeAll(async () => {
  fixture = await startServerFixture('agents-live');
  await defineAgent('reviewer', 'description: Reviews diffs for bugs.', 'ROLE-REVIEWER You review code.');
  await defineAgent('pair', 'description: Pairs with the user.\ninteractive: true', 'ROLE-PAIR You pair program.');
  const reviewerHeld = new Promise<void>((resolve) => {
    releaseReviewer = resolve;
  });
  fixture.fake.setHandler(async (req): Promise<FakeReply> => {
    const system = systemOf(req);
    if (system.includes('ROLE-REVIEWER')) {
      await reviewerHeld;
      return { chunks: ['REVIEW-RESULT: ', 'two nits'] };
    }
    if (system.includes('ROLE-PAIR')) return { text: 'PAIR-HELLO let us pair.' };
    const user = lastUserOf(req);
    if (user.includes('TASK-W')) return { text: 'WORKER-RESULT: 3 files' };
    if (user.includes('HAND-OFF'))
      return toolResults(req) === 0 ? { toolCalls: [{ name: 'hand_off_to', args: { agent: 'pair', message: 'the user wants to pair' } }] } : { text: 'ok' };
    if (user.includes('CHECK-IT')) {
      if (toolResults(req) === 0)
        return {
          chunks: ['Asking the reviewer ', 'and a worker.'],
          toolCalls: [
            { name: 'dispatch_to', args: { agent: 'reviewer', task: 'TASK-R review src/main.ts' } },
            { name: 'run_worker', args: { task: 'TASK-W count files' } },
          ],
        };
      return { text: 'Both came back.' };
    }
    return { text: 'ok' };
  });
}, 600_000);

afterAll(async () => {
  releaseReviewer();
  tmux.kill();
  await fixture?.close();
});

describe('the TUI with real agents', () => {
  it('shows the commander dispatching, the running reviewer, a hidden worker and the floor, the same in driver and viewer', async () => {
    const { server, sessionId, tokens } = fixture;
    tmux.start('driver', tandemShellLine(['attach', sessionId, '--url', server.url, '--token', tokens.control, '--name', 'ana']), {}, SIZE);
    tmux.start('viewer', tandemShellLine(['attach', sessionId, '--url', server.url, '--token', tokens.view, '--viewer', '--name', 'bo']), {}, SIZE);
    await tmux.waitFor('driver', (s) => /driver │ idle/.test(s), 180_000);
    await tmux.waitFor('viewer', (s) => /viewer │ idle/.test(s), 180_000);

    tmux.type('driver', 'CHECK-IT please', 'Enter');
    const running = await tmux.waitFor(
      'driver',
      (s) => /\d workers?: reviewer (thinking|writing)/.test(s) && s.includes('▶ [reviewer] started (by commander): TASK-R review src/main.ts · running'),
      120_000,
    );
    expect(running).toContain('[commander] Asking the reviewer and a worker.');
    expect(running).toContain('⚙ dispatch_to reviewer: TASK-R review src/main.ts');
    await tmux.waitFor('viewer', (s) => /\d workers?: reviewer (thinking|writing)/.test(s));
    // The anonymous worker is one line until Ctrl-O.
    await tmux.waitFor(
      'driver',
      (s) => /▸ \[worker-\d+\] anonymous worker \(by commander\): TASK-W count files · done · hidden, Ctrl-O shows its steps/.test(s),
      120_000,
    );
    expect(tmux.capture('driver')).not.toMatch(/│ \[worker-\d+\] WORKER-RESULT/);

    releaseReviewer();
    const done = await tmux.waitFor(
      'driver',
      (s) => s.includes('[commander] Both came back.') && s.includes('Final answer produced') && /driver │ idle/.test(s),
      120_000,
    );
    expect(done).toContain('│ [reviewer] REVIEW-RESULT: two nits');
    expect(done).toMatch(/│ reviewer \(task-\S+\) → DONE/);
    const viewerDone = await tmux.waitFor('viewer', (s) => s.includes('Final answer produced') && /viewer │ idle/.test(s), 120_000);
    expect(transcriptOf(viewerDone)).toBe(transcriptOf(done));

    tmux.type('driver', '', 'C-o');
    await tmux.waitFor('driver', (s) => /│ \[worker-\d+\] WORKER-RESULT: 3 files/.test(s));

    tmux.type('driver', 'HAND-OFF to pair', 'Enter');
    await tmux.waitFor('driver', (s) => /floor pair/.test(s) && s.includes('[pair] PAIR-HELLO let us pair.'), 120_000);
    await tmux.waitFor('viewer', (s) => /floor pair/.test(s));
    tmux.type('driver', '@c', 'Tab');
    await tmux.waitFor('driver', /› @commander\s*$/m);
  }, 600_000);
});
