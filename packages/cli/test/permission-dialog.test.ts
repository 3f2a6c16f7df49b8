import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tandemShellLine } from './cli-runner.js';
import { attachDriverAndViewer, sessionEvents, startServerFixture, type ServerFixture } from './server-fixture.js';
import { Tmux } from './tmux.js';

// The permission dialog in a real terminal: run_command is dangerous, so the server asks the
// attached drivers; the driver answers with one key, a viewer sees the question read-only.

let fixture: ServerFixture;
const tmux = new Tmux();

beforeAll(async () => {
  fixture = await startServerFixture('permission-test');
}, 600_000);

afterAll(async () => {
  tmux.kill();
  await fixture?.close();
});

describe('the permission dialog', () => {
  it('asks the driver; the viewer sees it read-only and who answered', async () => {
    const { fake } = fixture;
    await attachDriverAndViewer(tmux, fixture);

    fake.enqueue(
      { toolCalls: [{ name: 'run_command', args: { command: 'echo tandem-$((6*7)) > out.txt; cat out.txt' } }] },
      { chunks: ['The command ', 'printed tandem-42.'], chunkDelayMs: 20 },
    );
    tmux.type('driver', 'run the echo', 'Enter');
    const asked = await tmux.waitFor('driver', (s) => s.includes('Permission needed: run_command') && s.includes('[d] deny forever'));
    expect(asked).toContain('[DANGEROUS]');
    expect(asked).toContain('command: echo tandem-$((6*7)) > out.txt; cat out.txt');
    expect(asked).toMatch(/auto-deny in \d+ s/);
    expect(asked).toContain('waiting for permission');

    const watching = await tmux.waitFor('viewer', (s) => s.includes('Permission needed: run_command'));
    expect(watching).toContain('watch-only: a driver answers this request');
    expect(watching).not.toContain('[y] allow once');
    tmux.type('viewer', 'y');
    await tmux.waitFor('viewer', 'watch-only: attached with the view token');
    expect(tmux.capture('driver')).toContain('Permission needed: run_command');

    await tmux.answerPermission('driver', 'y');
    await tmux.waitFor(
      'driver',
      (s) =>
        s.includes('printed tandem-42.') &&
        /run_command\("echo tandem-\$\(\(6\*7\)\) > out\.txt; cat out\.txt"\) → OK/.test(s) &&
        s.includes('✔ allowed once by ana') &&
        s.includes('│ tandem-42'),
      90_000,
    );
    await tmux.waitFor('viewer', (s) => s.includes('✔ allowed once by ana') && s.includes('printed tandem-42.'));
  }, 600_000);

  it('Tab picks the scope a lasting answer applies to', async () => {
    const { fake } = fixture;
    // mkdir changes something, so it asks (a read-only command would not).
    fake.enqueue({ toolCalls: [{ name: 'run_command', args: { command: 'mkdir -p out/logs' } }] }, { text: 'Made.' });
    await tmux.waitFor('driver', /driver │ idle/);
    tmux.type('driver', 'make the log dir', 'Enter');
    const first = await tmux.waitFor('driver', (s) => s.includes('command: mkdir -p out/logs') && s.includes('apply to:'));
    const narrowest = /apply to: \[([^\]]+)\]/.exec(first)?.[1];
    expect(narrowest).toBeDefined();
    // Tab is the dialog's only once it has focus.
    await tmux.answerPermission('driver', '');
    tmux.type('driver', '', 'Tab');
    const moved = await tmux.waitFor('driver', (s) => /apply to: \S.* · \[[^\]]+\]/.test(s));
    const chosen = /· \[([^\]]+)\]/.exec(moved)?.[1];
    expect(chosen).toBeDefined();
    expect(chosen).not.toBe(narrowest);
    tmux.type('driver', 's');
    await tmux.waitFor('driver', (s) => s.includes('Made.') && s.includes('→ OK') && s.includes(`✔ allowed for this session (${chosen}) by ana`));
  }, 600_000);

  it('a message typed while the dialog appears stays in the input line and answers nothing', async () => {
    const { fake } = fixture;
    fake.enqueue({ toolCalls: [{ name: 'run_command', args: { command: 'touch typed.txt' } }] }, { text: 'Not touched.' });
    await tmux.waitFor('driver', /driver │ idle/);
    tmux.type('driver', 'touch it', 'Enter');
    // Typing on while the request arrives: s, a, y and d are all answers in the dialog.
    tmux.type('driver', 'yes sad day');
    await tmux.waitFor('driver', (s) => s.includes('Permission needed: run_command') && s.includes('command: touch typed.txt'));
    tmux.type('driver', ' as I say, do');
    const screen = await tmux.waitFor('driver', (s) => s.includes('› yes sad day as I say, do') && s.includes('the input line has text'));
    expect(screen).toContain('Permission needed: run_command');
    const events = await sessionEvents(fixture);
    const asked = events.filter((event) => event.type === 'permission_request').length;
    const answered = events.filter((event) => event.type === 'permission_resolved').length;
    expect(asked - answered).toBe(1);

    // Only an explicit F2 on an empty line answers: clear the line (the text was never lost), then deny.
    tmux.type('driver', '', 'C-u');
    await tmux.answerPermission('driver', 'n');
    await tmux.waitFor('driver', (s) => s.includes('Not touched.') && s.includes('⊘ denied once by ana') && /driver │ idle/.test(s));
  }, 600_000);

  it('the choices stay visible on a 60x15 terminal', async () => {
    const { fake, server, sessionId, tokens } = fixture;
    tmux.start('small', tandemShellLine(['attach', sessionId, '--url', server.url, '--token', tokens.control, '--name', 'cy']), {}, { columns: 60, rows: 15 });
    await tmux.waitFor('small', (s) => /driver │ idle|│ idle/.test(s), 180_000);
    const preview = Array.from({ length: 30 }, (_, i) => `echo line-${i}`).join('\n');
    fake.enqueue({ toolCalls: [{ name: 'run_command', args: { command: `${preview}\ntouch small.txt` } }] }, { text: 'Small done.' });
    tmux.type('small', 'a long command', 'Enter');
    const screen = await tmux.waitFor('small', (s) => s.includes('Permission needed') && /F2 or Enter on (the )?empty line: answer here/.test(s));
    for (const choice of ['[y] once', '[s] session', '[a] forever', '[n] deny once', '[d] deny forever']) expect(screen).toContain(choice);
    expect(screen).toMatch(/auto-deny in \d+ s/);
    expect(screen).toMatch(/… \(\d+ more lines; a taller terminal shows them\)/);
    await tmux.answerPermission('small', 'n');
    // 15 rows: the answer may already have scrolled up behind the run summary; the turn's end shows in the status line.
    await tmux.waitFor('small', (s) => /│ idle/.test(s) && !s.includes('Permission needed'));
  }, 600_000);
});
