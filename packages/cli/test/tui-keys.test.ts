import type { RunningServer } from '@tandem/server';
import type { FakeModelServer } from '@tandem/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tandemShellLine } from './cli-runner.js';
import { sessionEvents, startServerFixture, type ServerFixture } from './server-fixture.js';
import { Tmux } from './tmux.js';

// The keys people bring from other terminal agents, in a real terminal: Esc interrupts, Ctrl-C
// clears the line / cancels / quits on a second press, a paste is text (bracketed paste through
// tmux's paste buffer), and NO_COLOR draws without colours (read with capture-pane -e).

let fixture: ServerFixture;
let fake: FakeModelServer;
let server: RunningServer;
let sessionId: string;
const tmux = new Tmux();
const IDLE = /driver │ idle/;

beforeAll(async () => {
  fixture = await startServerFixture('keys-test');
  ({ fake, server, sessionId } = fixture);
  tmux.start('keys', tandemShellLine(['attach', sessionId, '--url', server.url, '--token', fixture.tokens.control, '--name', 'kim']));
  await tmux.waitFor('keys', (s) => s.includes('keys-test') && IDLE.test(s), 240_000);
}, 600_000);

afterAll(async () => {
  tmux.kill();
  await fixture?.close();
});

/** The input line: the one starting with the prompt. */
function inputLine(screen: string): string {
  return screen.split('\n').find((line) => line.startsWith('› ')) ?? '';
}

async function userMessages(): Promise<string[]> {
  return (await sessionEvents(fixture)).filter((event) => event.type === 'user_message').map((event) => event.text ?? '');
}

async function until(check: () => boolean, what: string, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('keys in a real terminal', () => {
  it('Esc cancels a running turn', async () => {
    fake.enqueue({ hang: true });
    tmux.type('keys', 'think for a long time', 'Enter');
    await tmux.waitFor('keys', (s) => s.includes('kim › think for a long time') && s.includes('Esc or Ctrl-C cancel turn'));
    // Cancel once the model holds the request, so no queued reply is left for the next test.
    await until(() => fake.pending() === 0, 'the model to take the request');
    tmux.type('keys', '', 'Escape');
    const screen = await tmux.waitFor('keys', (s) => s.includes('! turn cancelled') && IDLE.test(s));
    expect(screen).not.toContain('TANDEM EXITED');
  }, 600_000);

  it('Ctrl-C clears a typed line, and Up brings it back from the history', async () => {
    tmux.type('keys', 'a thought to keep');
    await tmux.waitFor('keys', (s) => inputLine(s).includes('a thought to keep'));
    tmux.type('keys', '', 'C-c');
    await tmux.waitFor('keys', (s) => inputLine(s).includes('type a message, Enter to send') && s.includes('input cleared'));
    tmux.type('keys', '', 'Up');
    await tmux.waitFor('keys', (s) => inputLine(s).includes('a thought to keep'));
    tmux.type('keys', '', 'C-c');
    const screen = await tmux.waitFor('keys', (s) => inputLine(s).includes('type a message, Enter to send'));
    expect(screen).not.toContain('TANDEM EXITED');
    expect(await userMessages()).not.toContain('a thought to keep');
  }, 600_000);

  it('Ctrl-C on an empty idle line says "Ctrl-C again to quit" and does not quit', async () => {
    tmux.type('keys', '', 'C-c');
    await tmux.waitFor('keys', 'Ctrl-C again to quit');
    // Another key in between: the next Ctrl-C only asks again.
    tmux.type('keys', '', 'Left');
    tmux.type('keys', '', 'C-c');
    const screen = await tmux.waitFor('keys', 'Ctrl-C again to quit');
    expect(screen).not.toContain('TANDEM EXITED');
    tmux.type('keys', '', 'Left');
  }, 600_000);

  it('a multi-line paste is inserted as text and sent as one message only on Enter', async () => {
    const before = await userMessages();
    tmux.paste('keys', 'first line\nsecond line\nthird line');
    await tmux.waitFor('keys', (s) => inputLine(s).includes('first line↵second line↵third line'));
    expect(await userMessages()).toEqual(before);
    fake.enqueue({ text: 'Three lines received.' });
    tmux.type('keys', '', 'Enter');
    await tmux.waitFor('keys', (s) => s.includes('Three lines received.') && IDLE.test(s));
    expect(await userMessages()).toEqual([...before, 'first line\nsecond line\nthird line']);
  }, 600_000);

  it('a large paste shows folded and is sent whole', async () => {
    const before = await userMessages();
    const trace = Array.from({ length: 120 }, (_, i) => `    at step${i} (src/main.ts:${i + 1}:7)`).join('\n');
    tmux.type('keys', 'why does this fail? ');
    tmux.paste('keys', trace);
    await tmux.waitFor('keys', (s) => inputLine(s).includes('why does this fail? [pasted 120 lines]'));
    fake.enqueue({ text: 'A stack of 120 frames.' });
    tmux.type('keys', '', 'Enter');
    await tmux.waitFor('keys', (s) => s.includes('A stack of 120 frames.') && IDLE.test(s));
    expect(await userMessages()).toEqual([...before, `why does this fail? ${trace}`]);
    // The model got the whole text in one request.
    const request = fake.requests.at(-1);
    expect(JSON.stringify(request?.body)).toContain('at step119 (src/main.ts:120:7)');
  }, 600_000);

  it('NO_COLOR draws without colours; attributes stay', async () => {
    tmux.start('plain', tandemShellLine(['attach', sessionId, '--url', server.url, '--token', fixture.tokens.view, '--viewer', '--name', 'nc']), {
      NO_COLOR: '1',
    });
    await tmux.waitFor('plain', (s) => s.includes('A stack of 120 frames.') && s.includes('viewer'), 240_000);
    const plain = tmux.captureStyled('plain');
    const coloured = tmux.captureStyled('keys');
    expect(colourCodes(coloured).length).toBeGreaterThan(0);
    expect(colourCodes(plain)).toEqual([]);
    // Still styled: bold names and headings.
    expect([...plain.matchAll(/\x1b\[([0-9;]*)m/g)].some((match) => (match[1] ?? '').split(';').includes('1'))).toBe(true);
    tmux.type('plain', '', 'C-c', 'C-c');
    await tmux.waitFor('plain', 'TANDEM EXITED 0');
  }, 600_000);

  it('Ctrl-C twice quits', async () => {
    tmux.type('keys', '', 'C-c', 'C-c');
    await tmux.waitFor('keys', 'TANDEM EXITED 0');
  }, 600_000);
});

/** The colour parameters of every SGR sequence (30–37, 38;…, 40–47, 48;…, 90–97, 100–107); 39 and 49 are the defaults. */
function colourCodes(screen: string): string[] {
  const found: string[] = [];
  for (const match of screen.matchAll(/\x1b\[([0-9;]*)m/g)) {
    const params = (match[1] ?? '').split(';').filter(Boolean).map(Number);
    for (let i = 0; i < params.length; i++) {
      const p = params[i] as number;
      if (p === 38 || p === 48) {
        found.push(match[0]);
        break;
      }
      if ((p >= 30 && p <= 37) || (p >= 40 && p <= 47) || (p >= 90 && p <= 97) || (p >= 100 && p <= 107)) found.push(match[0]);
    }
  }
  return found;
}
