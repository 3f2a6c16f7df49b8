import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tandemShellLine } from './cli-runner.js';
import { startServerFixture, type ServerFixture } from './server-fixture.js';
import { Tmux } from './tmux.js';

// The permission dialog in a real terminal: run_command is dangerous, so the server asks the
// attached drivers; the driver answers with one key, a viewer sees the question read-only.

let fixture: ServerFixture;
const tmux = new Tmux();

beforeAll(async () => {
  fixture = await startServerFixture('permission-test');
}, 60_000);

afterAll(async () => {
  tmux.kill();
  await fixture?.close();
});

describe('the permission dialog', () => {
  it('asks the driver; the viewer sees it read-only and who answered', async () => {
    const { server, sessionId, tokens, dataDir, fake } = fixture;
    tmux.start('driver', tandemShellLine(['attach', sessionId, '--url', server.url, '--token', tokens.control, '--name', 'ana']));
    tmux.start('viewer', tandemShellLine(['attach', sessionId, '--url', server.url, '--viewer', '--data-dir', dataDir.path, '--name', 'bo']));
    await tmux.waitFor('driver', (s) => /driver │ .*idle/.test(s), 45_000);
    await tmux.waitFor('viewer', (s) => /viewer │ .*idle/.test(s), 45_000);

    fake.enqueue(
      { toolCalls: [{ name: 'run_command', args: { command: 'echo tandem-$((6*7))' } }] },
      { chunks: ['The command ', 'printed tandem-42.'], chunkDelayMs: 20 },
    );
    tmux.type('driver', 'run the echo', 'Enter');
    const asked = await tmux.waitFor('driver', (s) => s.includes('Permission needed: run_command') && s.includes('[d] deny forever'), 30_000);
    expect(asked).toContain('[DANGEROUS]');
    expect(asked).toContain('command: echo tandem-$((6*7))');
    expect(asked).toMatch(/auto-deny in \d+ s/);
    expect(asked).toContain('waiting for permission');

    const watching = await tmux.waitFor('viewer', (s) => s.includes('Permission needed: run_command'));
    expect(watching).toContain('watch-only: a driver answers this request');
    expect(watching).not.toContain('[y] allow once');
    tmux.type('viewer', 'y');
    await tmux.waitFor('viewer', 'watch-only: attached with the view token');
    expect(tmux.capture('driver')).toContain('Permission needed: run_command');

    tmux.type('driver', 'y');
    // The answered permission stays on screen for a moment over the transcript: wait it out.
    await tmux.waitFor(
      'driver',
      (s) => s.includes('printed tandem-42.') && /run_command\("echo tandem-\$\(\(6\*7\)\)"\) → OK/.test(s) && s.includes('✔ allowed once by ana') && s.includes('│ tandem-42'),
      30_000,
    );
    await tmux.waitFor('viewer', (s) => s.includes('✔ allowed once by ana') && s.includes('printed tandem-42.'));
  }, 120_000);

  it('Tab picks the scope a lasting answer applies to', async () => {
    const { fake } = fixture;
    fake.enqueue({ toolCalls: [{ name: 'run_command', args: { command: 'ls -a src' } }] }, { text: 'Listed.' });
    await tmux.waitFor('driver', /driver │ idle/);
    tmux.type('driver', 'list src', 'Enter');
    const first = await tmux.waitFor('driver', (s) => s.includes('command: ls -a src') && s.includes('apply to:'), 30_000);
    const narrowest = /apply to: \[([^\]]+)\]/.exec(first)?.[1];
    expect(narrowest).toBeDefined();
    tmux.type('driver', '', 'Tab');
    const moved = await tmux.waitFor('driver', (s) => /apply to: \S.* · \[[^\]]+\]/.test(s));
    const chosen = /· \[([^\]]+)\]/.exec(moved)?.[1];
    expect(chosen).toBeDefined();
    expect(chosen).not.toBe(narrowest);
    tmux.type('driver', 's');
    // Waits out the moment the answered permission stays on screen over the transcript.
    await tmux.waitFor('driver', (s) => s.includes('Listed.') && s.includes('→ OK') && s.includes(`✔ allowed for this session (${chosen}) by ana`), 30_000);
  }, 90_000);
});
