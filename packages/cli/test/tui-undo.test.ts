import { readFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTandem, tandemShellLine } from './cli-runner.js';
import { startServerFixture, type ServerFixture } from './server-fixture.js';
import { Tmux } from './tmux.js';

// Undo in a real terminal against a real server (commands in real bubblewrap when it runs here):
// the checkpoint line, /diff, /undo, the one-key offer after Ctrl-C, /rewind, and `tandem undo`.

let fixture: ServerFixture;
const tmux = new Tmux();

beforeAll(async () => {
  fixture = await startServerFixture('undo-test');
  const { server, sessionId, tokens } = fixture;
  tmux.start('driver', tandemShellLine(['attach', sessionId, '--url', server.url, '--token', tokens.control, '--name', 'ana']));
  await tmux.waitFor('driver', (s) => /driver │ .*idle/.test(s), 180_000);
}, 600_000);

afterAll(async () => {
  tmux.kill();
  await fixture?.close();
});

const main = () => join(fixture.project.path, 'src', 'main.ts');

describe('undo in a real terminal', () => {
  it('shows what a turn changed, /diff colours it, /undo puts it back', async () => {
    fixture.fake.enqueue(
      { toolCalls: [{ name: 'run_command', args: { command: 'echo "console.log(2);" > src/main.ts && echo fresh > src/new.ts' } }] },
      { text: 'Edited the files.' },
    );
    tmux.type('driver', 'edit the files', 'Enter');
    await tmux.answerPermission('driver', 'y');
    await tmux.waitFor('driver', (s) => s.includes('checkpoint: the turn changed 2 files') && /driver │ idle/.test(s));
    expect(await readFile(main(), 'utf8')).toBe('console.log(2);\n');

    tmux.type('driver', '/diff', 'Enter');
    const diff = await tmux.waitFor('driver', (s) => s.includes('diff of the last turn') && s.includes('+console.log(2);'));
    expect(diff).toContain('-console.log(1);');
    expect(diff).toContain('A src/new.ts');
    tmux.type('driver', '', 'Escape');
    await tmux.waitFor('driver', (s) => !s.includes('diff of the last turn'));

    tmux.type('driver', '/undo', 'Enter');
    await tmux.waitFor('driver', (s) => s.includes('undo: 1 turn taken back, 2 file(s) restored'));
    expect(await readFile(main(), 'utf8')).toBe('console.log(1);\n');
    expect(existsSync(join(fixture.project.path, 'src', 'new.ts'))).toBe(false);
  }, 600_000);

  it('after Ctrl-C one key puts the cancelled turn’s files back', async () => {
    fixture.fake.enqueue(
      // No answer after it: the turn is cancelled while the command runs, and asks for none.
      {
        toolCalls: [
          { name: 'run_command', args: { command: 'echo "# changed" > README.md && echo "now-""running" && while true; do read -r _ || true; done' } },
        ],
      },
    );
    tmux.type('driver', 'change the readme', 'Enter');
    await tmux.answerPermission('driver', 'y');
    // The command's own output (its text on screen reads "now-""running").
    await tmux.waitFor('driver', (s) => s.includes('now-running'));
    tmux.type('driver', '', 'C-c');
    await tmux.waitFor('driver', (s) => s.includes('Put it back too? y / n'));
    expect(await readFile(join(fixture.project.path, 'README.md'), 'utf8')).toBe('# changed\n');
    tmux.type('driver', 'y');
    await tmux.waitFor('driver', (s) => s.includes('undo: 1 turn taken back, 1 file(s) restored'));
    expect(await readFile(join(fixture.project.path, 'README.md'), 'utf8')).toBe('# demo project\n');
    expect(fixture.fake.pending()).toBe(0);
  }, 600_000);

  it('/rewind lists the turns and takes back the chosen one and those after it; tandem undo does it from the shell', async () => {
    fixture.fake.setHandler(() => ({ text: 'ok' }));
    for (const n of [1, 2]) {
      fixture.fake.enqueue({ toolCalls: [{ name: 'run_command', args: { command: `echo step${n} >> notes.txt` } }] }, { text: `Step ${n} done.` });
      tmux.type('driver', `step ${n}`, 'Enter');
      await tmux.answerPermission('driver', 'y');
      await tmux.waitFor('driver', (s) => s.includes(`Step ${n} done.`) && /driver │ idle/.test(s));
    }
    await tmux.waitFor('driver', (s) => (s.match(/checkpoint: the turn changed 1 file/g) ?? []).length >= 1);
    tmux.type('driver', '/rewind', 'Enter');
    await tmux.waitFor('driver', (s) => s.includes('rewind ·') && s.includes('2 back'));
    tmux.type('driver', '', 'Down');
    tmux.type('driver', '', 'Enter');
    await tmux.waitFor('driver', (s) => s.includes('rewound 2 turns'));
    expect(existsSync(join(fixture.project.path, 'notes.txt'))).toBe(false);

    // From the shell: the same, for this folder's session.
    fixture.fake.enqueue({ toolCalls: [{ name: 'run_command', args: { command: 'echo shell > shell.txt' } }] }, { text: 'Wrote shell.txt.' });
    tmux.type('driver', 'write shell.txt', 'Enter');
    await tmux.answerPermission('driver', 'y');
    await tmux.waitFor(
      'driver',
      (s) => s.includes('Wrote shell.txt.') && /driver │ idle/.test(s) && s.includes('checkpoint: the turn changed 1 file (shell.txt)'),
    );
    await writeFile(join(fixture.project.path, 'untouched.txt'), 'mine\n');
    const { server, tokens, sessionId } = fixture;
    const result = await runTandem(['undo', sessionId.slice(0, 8), '--url', server.url, '--token', tokens.control]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('restored 1 file(s):\n  shell.txt');
    expect(existsSync(join(fixture.project.path, 'shell.txt'))).toBe(false);
    expect(await readFile(join(fixture.project.path, 'untouched.txt'), 'utf8')).toBe('mine\n');
    await tmux.waitFor('driver', (s) => s.includes('undo by') && s.includes('the last turn taken back'));
  }, 600_000);
});
