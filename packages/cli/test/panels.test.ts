import { createHash } from 'node:crypto';
import { mkdir, realpath, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ExternalPackages } from '@tandem/server';
import { makeRepo, skillFile } from '@tandem/testkit';
import { TandemClient } from '@tandem/tui';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachDriverAndViewer, startServerFixture, type ServerFixture } from './server-fixture.js';
import { Tmux } from './tmux.js';

// The panels and Ctrl-T in a real terminal against a real server: F3 jobs (x stops one),
// Ctrl-T typing into a running command, /permissions (r revokes), /audit, /memory, and what a
// viewer may see of them.

let fixture: ServerFixture;
const tmux = new Tmux();

beforeAll(async () => {
  fixture = await startServerFixture('panels-test');
  await attachDriverAndViewer(tmux, fixture);
}, 600_000);

afterAll(async () => {
  tmux.kill();
  await fixture?.close();
});

describe('panels and command focus in a real terminal', () => {
  it('F3 lists background jobs live; x stops the selected one; a viewer sees it read-only', async () => {
    const { fake } = fixture;
    fake.enqueue(
      { toolCalls: [{ name: 'run_command', args: { command: 'echo started; sleep 300', background: true } }] },
      { text: 'It runs in the background.' },
    );
    tmux.type('driver', 'start the server', 'Enter');
    await tmux.answerPermission('driver', 'y');
    const started = await tmux.waitFor('driver', (s) => s.includes('It runs in the background.') && /driver │ idle/.test(s));
    expect(started).toMatch(/1 job \(F3\)/);

    tmux.type('driver', '', 'F3');
    const panel = await tmux.waitFor('driver', (s) => s.includes('background jobs · 1 running') && s.includes('x stop job'));
    expect(panel).toMatch(/job-\S+ +running +\d\d:\d\d:\d\d {2}echo started; sleep 300/);
    expect(panel).toContain('log: ');

    tmux.type('viewer', '', 'F3');
    const watching = await tmux.waitFor('viewer', (s) => s.includes('background jobs · 1 running'));
    expect(watching).toContain('read-only: a driver can stop jobs');
    expect(watching).not.toContain('x stop job');
    // Keys are handled in order: once Esc has closed the viewer's panel, its x was handled too.
    tmux.type('viewer', 'x');
    tmux.type('viewer', '', 'Escape');
    await tmux.waitFor('viewer', (s) => !s.includes('background jobs ·'));
    const { server, tokens, sessionId } = fixture;
    const probe = new TandemClient(server.url, { token: tokens.control, name: 'probe' });
    try {
      await probe.ready();
      expect((await probe.request('jobs:list', { sessionId })).jobs.map((job) => job.status)).toEqual(['running']);
    } finally {
      probe.close();
    }
    tmux.type('viewer', '', 'F3');
    await tmux.waitFor('viewer', (s) => s.includes('background jobs · 1 running'));

    tmux.type('driver', 'x');
    // job_exited and the stop's answer arrive in either order: wait for both.
    await tmux.waitFor('driver', (s) => s.includes('background jobs · 0 running') && /stopped \(code/.test(s) && /stop requested for job-\S+/.test(s));
    // The viewer's panel follows job_exited live.
    await tmux.waitFor('viewer', (s) => s.includes('background jobs · 0 running'));
    tmux.type('viewer', '', 'Escape');
    await tmux.waitFor('viewer', (s) => !s.includes('background jobs ·'));
    tmux.type('driver', '', 'Escape');
    await tmux.waitFor('driver', (s) => !s.includes('background jobs ·') && /background job job-\S+ exited .*stopped by ana/.test(s));
  }, 600_000);

  it('Ctrl-T types the input line into the running command, and the mode ends with it', async () => {
    const { fake } = fixture;
    fake.enqueue({ toolCalls: [{ name: 'run_command', args: { command: 'read -r a; read -r b; echo "got $a and $b"' } }] }, { text: 'It read two lines.' });
    tmux.type('driver', 'read two lines', 'Enter');
    await tmux.waitFor('driver', (s) => s.includes('Permission needed: run_command') && s.includes('command: read -r a'));
    // `a` allows forever: the rule shows up in /permissions below.
    await tmux.answerPermission('driver', 'a');
    await tmux.waitFor('driver', (s) => s.includes('⚙ run_command read -r a') && s.includes('… running') && !s.includes('Permission needed'));

    tmux.type('driver', '', 'C-t');
    const focused = await tmux.waitFor('driver', (s) => s.includes('⌨ typing into command'));
    expect(focused).toContain('$  typing into the running command');
    expect(focused).toContain('Ctrl-T or Esc back to chat');
    tmux.type('driver', 'apples', 'Enter');
    tmux.type('driver', 'pears', 'Enter');
    const done = await tmux.waitFor(
      'driver',
      (s) => s.includes('It read two lines.') && /driver │ idle/.test(s) && s.includes('│ got apples and pears'),
      90_000,
    );
    expect(done).not.toContain('⌨ typing into command');
    expect(done).toContain('› ');
    // Nothing typed there went to the model as a message.
    expect(done).not.toContain('ana › apples');

    tmux.type('driver', '', 'C-t');
    await tmux.waitFor('driver', 'Ctrl-T: no command is running to type into');
  }, 600_000);

  it('/permissions lists the stored rule with who made it; r revokes it; a viewer is told it needs the control token', async () => {
    tmux.type('driver', '/permissions', 'Enter');
    const listed = await tmux.waitFor('driver', (s) => s.includes('stored permissions · 1 rule') && s.includes('r revoke'));
    expect(listed).toMatch(/allow run_command +read -r a; read -r b; echo "got \$a and \$b".* by ana {2}\d{4}-\d\d-\d\d \d\d:\d\d/);

    tmux.type('viewer', '', 'F4');
    const refused = await tmux.waitFor('viewer', (s) => s.includes('needs the control token'));
    expect(refused).toContain('stored permissions: needs the control token, and this client attached with the view token');
    tmux.type('viewer', '', 'Escape');

    tmux.type('driver', 'r');
    const revoked = await tmux.waitFor('driver', (s) => s.includes('stored permissions · 0 rules') && s.includes('revoked: allow run_command'));
    expect(revoked).toContain('no stored decisions');
    tmux.type('driver', '', 'Escape');
    await tmux.waitFor('driver', (s) => !s.includes('stored permissions ·'));
  }, 600_000);

  it('/audit shows the latest tool calls with decision, who decided, duration and result', async () => {
    tmux.type('driver', '/audit', 'Enter');
    // Wait on the panel's own line: the transcript behind it also says "got apples and pears".
    const row = /\d\d:\d\d:\d\d run_command +dangerous +allow_forever by ana +[\d.]+m?s OK +.*got apples and pears/;
    const screen = await tmux.waitFor('driver', (s) => /audit · latest \d+ tool calls/.test(s) && row.test(s));
    expect(screen).toMatch(row);
    expect(screen).toMatch(/allow_once by ana/);
    tmux.type('driver', '', 'Escape');
    await tmux.waitFor('driver', (s) => !s.includes('audit · latest'));
  }, 600_000);

  it('/memory shows MEMORY.md and the tail of HISTORY.md, for a viewer too (F6)', async () => {
    const { dataDir, project } = fixture;
    const hash = createHash('sha256')
      .update(await realpath(project.path))
      .digest('hex')
      .slice(0, 16);
    const dir = join(dataDir.path, 'memory', hash);
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'MEMORY.md'), '# Project facts\n- tests run with node --test\n');
    await writeFile(join(dir, 'HISTORY.md'), '[2026-12-01 10:00] set up the demo project\n');
    tmux.type('driver', '/memory', 'Enter');
    const screen = await tmux.waitFor('driver', (s) => s.includes('── MEMORY.md ──') && s.includes('set up the demo project'));
    expect(screen).toContain('- tests run with node --test');
    expect(screen).toContain('── HISTORY.md ──');
    tmux.type('driver', '', 'Escape');
    tmux.type('viewer', '', 'F6');
    await tmux.waitFor('viewer', (s) => s.includes('── MEMORY.md ──') && s.includes('- tests run with node --test'));
    tmux.type('viewer', '', 'Escape');
  }, 600_000);

  it('/packages (F8) lists the external packages beside the MCP servers and skills', async () => {
    const { dataDir, project } = fixture;
    const repo = join(dataDir.path, 'kit-repo');
    makeRepo(repo, {
      'skills/tidy/SKILL.md': skillFile('tidy', 'Tidies things.', 'Be tidy.'),
      'bin/kit-run': { text: '#!/bin/sh\necho kit\n', executable: true },
    });
    const { entry } = await new ExternalPackages(dataDir.path).add({ source: repo, cwd: project.path, name: 'kit' });
    tmux.type('driver', '/packages', 'Enter');
    const screen = await tmux.waitFor('driver', (s) => /extensions · .* · 1 packages/.test(s) && /pkg +kit +both +[0-9a-f]{12}/.test(s));
    expect(screen).toContain(entry.commit.slice(0, 12));
    expect(screen).toMatch(/skill tidy +ok +Tidies things\./);
    tmux.type('driver', '', 'Escape');
    await tmux.waitFor('driver', (s) => !s.includes('extensions · '));
  }, 600_000);
});
