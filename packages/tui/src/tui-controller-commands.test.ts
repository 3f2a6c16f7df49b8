import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CustomCommand, SessionEvent } from '@tandem/shared';
import { afterAll, describe, expect, it } from 'vitest';
import { INIT_PROMPT } from './init-prompt.js';
import { attachedController, fakeHost } from './tui-controller.test-helper.js';

// Custom commands, /help, /init and /export at the controller: the host answers commands:list
// and session:history like a server; /export writes a real file.

const REVIEW: CustomCommand = {
  name: 'review',
  description: 'Review the diff',
  argumentHint: '[focus]',
  body: 'Review the diff; focus on $ARGUMENTS.',
  source: 'project',
  file: '/w/demo/.claude/commands/review.md',
  status: 'ok',
};
const dir = mkdtempSync(join(tmpdir(), 'tandem-export-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const flush = () => new Promise((resolve) => setImmediate(resolve));

/** Lets pending promises (the fake requests, the file write) run until `check` holds. */
async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 10_000 && !check(); i++) await flush();
  expect(check()).toBe(true);
}

function setup(commands: CustomCommand[] = [REVIEW]) {
  const sent: Array<{ command: string; payload: unknown }> = [];
  const history: SessionEvent[] = [
    { sessionId: 's1', seq: 1, ts: '2026-01-01T00:00:00.000Z', type: 'user_message', text: 'hello', by: 'ana', mode: 'turn' },
    { sessionId: 's1', seq: 2, ts: '2026-01-01T00:00:00.000Z', type: 'assistant_text', turnId: 't1', iteration: 1, text: 'Hi, ana.' },
  ];
  const host = fakeHost({
    request: (command, payload) => {
      sent.push({ command, payload });
      if (command === 'commands:list') return Promise.resolve({ commands } as never);
      if (command === 'session:history') return Promise.resolve({ events: history, hasMore: false, firstSeq: 1 } as never);
      return Promise.resolve({ mode: 'turn' } as never);
    },
  });
  const { tui, type, press } = attachedController(host);
  const sends = () => sent.filter((entry) => entry.command === 'session:send').map((entry) => (entry.payload as { text: string }).text);
  const notices = () => tui.state.items.filter((item) => item.kind === 'notice').map((item) => (item as { text: string }).text);
  return { tui, sent, type, press, sends, notices };
}

describe('custom commands at the keyboard', () => {
  it('Tab completes a custom command; Enter sends its prompt with the arguments put in', async () => {
    const { tui, type, press, sends } = setup();
    await flush();
    type('/rev');
    press('tab', { ch: '\t' });
    expect(tui.editor.text).toBe('/review ');
    type('error handling');
    press('enter');
    await flush();
    expect(sends()).toEqual(['Review the diff; focus on error handling.']);
  });

  it('/help lists the custom commands after the built-ins', async () => {
    const { type, press, notices } = setup();
    type('/help');
    press('enter');
    await flush();
    await flush();
    const [builtins, custom] = notices();
    expect(builtins).toContain('/export [FILE]');
    expect(custom).toBe('custom commands: /review [focus] (Review the diff) [project]');
  });

  it('a name no command has is reported, after reading the list again', async () => {
    const { type, press, notices, sent } = setup([]);
    await flush();
    type('/nope');
    press('enter');
    await flush();
    await flush();
    expect(sent.filter((entry) => entry.command === 'commands:list')).toHaveLength(2);
    expect(notices().at(-1)).toMatch(/^unknown command \/nope; \/help lists them/);
  });

  it('/init asks the agent to write or improve AGENTS.md', async () => {
    const { type, press, sends } = setup();
    type('/init');
    press('enter');
    await flush();
    expect(sends()).toEqual([INIT_PROMPT]);
    expect(INIT_PROMPT).toContain('AGENTS.md');
  });

  it('/export FILE writes the whole transcript and never overwrites a file', async () => {
    const { type, press, notices } = setup();
    const file = join(dir, 'session.md');
    type(`/export ${file}`);
    press('enter');
    await until(() => notices().some((text) => text.startsWith('/export')));
    expect(readFileSync(file, 'utf8')).toContain('## ana\n\nhello');
    expect(notices().at(-1)).toBe(`/export: 2 events written to ${file} (markdown)`);
    writeFileSync(join(dir, 'taken.json'), 'mine');
    type(`/export ${join(dir, 'taken.json')}`);
    press('enter');
    await until(() => notices().some((text) => text.includes('exists')));
    expect(readFileSync(join(dir, 'taken.json'), 'utf8')).toBe('mine');
    expect(notices().at(-1)).toContain('exists; give another name');
  });
});
