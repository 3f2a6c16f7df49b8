import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RunningServer } from '@tandem/server';
import { makeTempDir, type FakeModelServer, type TempDir } from '@tandem/testkit';
import { TandemClient } from '@tandem/tui';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTandem, tandemShellLine } from './cli-runner.js';
import { sessionEvents, startServerFixture, type ServerFixture } from './server-fixture.js';
import { Tmux } from './tmux.js';

// The habits people bring: `tandem -c` / `tandem -r`, custom slash commands from .claude/commands
// and .tandem/commands (Tab, /help, $ARGUMENTS), /init, /export and `tandem export`, in a real
// terminal against a real server with the scripted model.

let fixture: ServerFixture;
let fake: FakeModelServer;
let server: RunningServer;
let project: TempDir;
let empty: TempDir;
let first: string;
let second: string;
const tmux = new Tmux();
const IDLE = /driver │ idle/;

beforeAll(async () => {
  fixture = await startServerFixture('first');
  ({ fake, server, project } = fixture);
  first = fixture.sessionId;
  empty = await makeTempDir('tandem-desk-empty-');
  await mkdir(join(project.path, '.claude', 'commands'), { recursive: true });
  await writeFile(
    join(project.path, '.claude', 'commands', 'review.md'),
    '---\ndescription: Review a part of the code\nargument-hint: "[part]"\n---\nReview $ARGUMENTS carefully and list the risks.\n',
  );
  await mkdir(join(project.path, '.tandem', 'commands'), { recursive: true });
  await writeFile(join(project.path, '.tandem', 'commands', 'fix-issue.md'), 'Fix issue #$1, priority $2.\n');
  await mkdir(join(fixture.dataDir.path, 'commands'), { recursive: true });
  await writeFile(join(fixture.dataDir.path, 'commands', 'standup.md'), '---\ndescription: What changed since yesterday\n---\nSummarise what changed.\n');

  // Two sessions of the folder: "second" is created last, "first" is used last.
  const client = new TandemClient(server.url, { token: fixture.tokens.control, name: 'setup' });
  await client.ready();
  second = (await client.request('session:create', { cwd: project.path, title: 'second' })).session.id;
  await client.attach(first, 'driver');
  let done = false;
  client.subscribe((signal) => {
    if (signal.kind === 'event' && signal.event.type === 'turn_done') done = true;
  });
  fake.enqueue({ text: 'noted' });
  await client.request('session:send', { sessionId: first, text: 'remember this' });
  const deadline = Date.now() + 120_000;
  while (!done && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
  expect(done).toBe(true);
  client.close();
}, 600_000);

afterAll(async () => {
  tmux.kill();
  await empty?.cleanup();
  await fixture?.close();
});

const local = () => ['--data-dir', fixture.dataDir.path, '--name', 'dee'];

describe('tandem -c and -r', () => {
  it('-c opens the folder’s most recently used session, not the newest one', async () => {
    tmux.start('cont', tandemShellLine(['-c', ...local()], { cwd: project.path }));
    const screen = await tmux.waitFor('cont', (s) => IDLE.test(s) && s.includes('remember this'), 240_000);
    expect(screen).toMatch(/│ first /);
    expect(screen).toContain(first.slice(0, 8));
  }, 600_000);

  it('-r lists the folder’s sessions, most recently used first, and opens the one picked', async () => {
    tmux.start('resume', tandemShellLine(['-r', ...local()], { cwd: project.path }));
    const list = await tmux.waitFor('resume', 'open which? 1-2', 240_000);
    expect(list).toMatch(/ {2}1\) first · used .* · openai\/gpt-4\.1-mini/);
    expect(list).toMatch(/ {2}2\) second · used /);
    tmux.type('resume', '2', 'Enter');
    const screen = await tmux.waitFor('resume', (s) => IDLE.test(s) && /│ second /.test(s), 240_000);
    expect(screen).toContain(second.slice(0, 8));
    tmux.type('resume', '', 'C-c', 'C-c');
    await tmux.waitFor('resume', 'TANDEM EXITED 0');
  }, 600_000);

  it('-c in a folder without sessions says so and starts nothing', async () => {
    tmux.start('none', tandemShellLine(['-c', ...local()], { cwd: empty.path }));
    const screen = await tmux.waitFor('none', 'TANDEM EXITED 1', 240_000);
    expect(screen).toContain(`no session for ${empty.path} yet, so nothing to continue; run \`tandem\` to start one`);
  }, 600_000);
});

describe('custom commands, /init and /export in the TUI', () => {
  it('Tab completes a custom command and Enter sends its prompt with the arguments', async () => {
    tmux.type('cont', '/rev');
    tmux.type('cont', '', 'Tab');
    // (capture-pane drops the trailing space; the cursor stands after it)
    await tmux.waitFor('cont', (s) => s.split('\n').some((line) => line.trimEnd() === '› /review'));
    fake.enqueue({ text: 'Two risks in the parser.' });
    tmux.type('cont', 'the parser', 'Enter');
    const screen = await tmux.waitFor('cont', (s) => s.includes('Two risks in the parser.') && IDLE.test(s));
    expect(screen).toContain('dee › Review the parser carefully and list the risks.');
  }, 600_000);

  it('$1 and $2, and a user command from <data-dir>/commands', async () => {
    fake.enqueue({ text: 'Fixed.' }, { text: 'Nothing changed.' });
    tmux.type('cont', '/fix-issue 42 high', 'Enter');
    await tmux.waitFor('cont', (s) => s.includes('dee › Fix issue #42, priority high.') && s.includes('Fixed.') && IDLE.test(s));
    tmux.type('cont', '/standup', 'Enter');
    await tmux.waitFor('cont', (s) => s.includes('dee › Summarise what changed.') && s.includes('Nothing changed.') && IDLE.test(s));
  }, 600_000);

  it('/help lists them', async () => {
    tmux.type('cont', '/help', 'Enter');
    const screen = await tmux.waitFor('cont', 'custom commands:');
    // Wrapped lines lose the space they broke at: compare without whitespace.
    const flat = screen.replace(/\s+/g, '');
    const squeeze = (text: string) => text.replace(/\s+/g, '');
    expect(flat).toContain(squeeze('/fix-issue (Fix issue #$1, priority $2.) [project]'));
    expect(flat).toContain(squeeze('/review [part] (Review a part of the code) [project]'));
    expect(flat).toContain(squeeze('/standup (What changed since yesterday) [user]'));
  }, 600_000);

  it('/init asks the agent to write AGENTS.md', async () => {
    fake.enqueue({ text: 'AGENTS.md written.' });
    tmux.type('cont', '/init', 'Enter');
    await tmux.waitFor('cont', (s) => s.includes('AGENTS.md written.') && IDLE.test(s));
    const sent = JSON.stringify(fake.requests.at(-1)?.body);
    expect(sent).toContain('Please write an AGENTS.md file at the root of this workspace');
  }, 600_000);

  it('/export writes the whole transcript as markdown', async () => {
    const file = join(empty.path, 'first.md');
    tmux.type('cont', `/export ${file}`, 'Enter');
    await tmux.waitFor('cont', (s) => s.replace(/\n/g, '').includes(`written to ${file}`));
    const md = await readFile(file, 'utf8');
    expect(md).toContain('# first');
    expect(md).toContain('## setup\n\nremember this');
    expect(md).toContain('## dee\n\nReview the parser carefully and list the risks.');
    expect(md).toContain('## Tandem\n\nTwo risks in the parser.');
    tmux.type('cont', '', 'C-c', 'C-c');
    await tmux.waitFor('cont', 'TANDEM EXITED 0');
  }, 600_000);
});

describe('tandem export', () => {
  it('prints markdown, or JSON with every event, with the view token', async () => {
    const md = await runTandem(['export', first.slice(0, 8), '--url', server.url, '--token', fixture.tokens.view]);
    expect(md.code, md.stderr).toBe(0);
    expect(md.stdout).toContain('## setup\n\nremember this');
    const json = await runTandem(['export', first, '--url', server.url, '--token', fixture.tokens.view, '--format', 'json']);
    expect(json.code, json.stderr).toBe(0);
    const parsed = JSON.parse(json.stdout) as { session: { id: string }; events: Array<{ type: string; seq: number }> };
    expect(parsed.session.id).toBe(first);
    // Every message of the session is there, in order (a probe's own presence events come after).
    const logged = await sessionEvents({ ...fixture, sessionId: first });
    const texts = (events: Array<{ type: string; text?: string }>) => events.filter((event) => event.type === 'user_message').map((event) => event.text);
    expect(texts(parsed.events as Array<{ type: string; text?: string }>)).toEqual(texts(logged));
    expect(texts(logged).length).toBeGreaterThanOrEqual(5);
    expect(parsed.events.map((event) => event.seq)).toEqual([...parsed.events.map((event) => event.seq)].sort((a, b) => a - b));
  }, 600_000);

  it('writes a file with -o and refuses an unknown format', async () => {
    const file = join(empty.path, 'second.json');
    const run = await runTandem(['export', second, '--url', server.url, '--token', fixture.tokens.view, '--format', 'json', '-o', file]);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(await readFile(file, 'utf8')).session.title).toBe('second');
    const bad = await runTandem(['export', second, '--format', 'pdf']);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('expected md or json, got "pdf"');
  }, 600_000);
});

describe('tandem models with providers of one’s own', () => {
  it('lists them from config.json without a restart, and says when config.json cannot be used', async () => {
    const config = join(fixture.dataDir.path, 'config.json');
    const before = await readFile(config, 'utf8');
    try {
      const providers = { lmstudio: { api: 'openai', baseURL: 'http://127.0.0.1:1234/v1', models: [{ id: 'qwen-coder', contextWindow: 65_536 }] } };
      await writeFile(config, JSON.stringify({ ...JSON.parse(before), providers }));
      const listed = await runTandem(['models', '--data-dir', fixture.dataDir.path]);
      expect(listed.code, listed.stderr).toBe(0);
      expect(listed.stdout).toMatch(/^lmstudio\/qwen-coder +66k +yes +custom +qwen-coder$/m);
      expect(listed.stderr).toBe('');
      await writeFile(config, JSON.stringify({ ...JSON.parse(before), providers: { lmstudio: { api: 'openai' } } }));
      const broken = await runTandem(['models', '--data-dir', fixture.dataDir.path]);
      expect(broken.code).toBe(0);
      expect(broken.stderr).toContain('providers.lmstudio.baseURL: lmstudio is not a built-in provider, so it needs baseURL');
      expect(broken.stdout).not.toContain('lmstudio/');
    } finally {
      await writeFile(config, before);
    }
  }, 600_000);
});

describe('the same connection options for every command', () => {
  it('tandem attach --port N opens the TUI on the server at that port', async () => {
    const port = new URL(server.url).port;
    tmux.start('byport', tandemShellLine(['attach', first, '--port', port, ...local()], { cwd: empty.path }));
    const screen = await tmux.waitFor('byport', (s) => IDLE.test(s) && /│ first /.test(s), 240_000);
    expect(screen).toContain(`● local:${port}`);
    tmux.type('byport', '', 'C-c', 'C-c');
    await tmux.waitFor('byport', 'TANDEM EXITED 0');
  }, 600_000);

  it('ls, export and status take --port too, with a data directory that knows no server', async () => {
    const port = new URL(server.url).port;
    const elsewhere = await makeTempDir('tandem-desk-data-');
    try {
      const common = ['--port', port, '--token', fixture.tokens.view, '--data-dir', elsewhere.path];
      const ls = await runTandem(['ls', ...common]);
      expect(ls.code, ls.stderr).toBe(0);
      expect(ls.stdout).toContain(first);
      const exported = await runTandem(['export', first, ...common]);
      expect(exported.code, exported.stderr).toBe(0);
      expect(exported.stdout).toContain('# first');
      const status = await runTandem(['status', ...common]);
      expect(status.code, status.stderr).toBe(0);
      expect(status.stdout).toContain(`127.0.0.1:${port}`);
      const help = await runTandem(['routines', 'list', '--help']);
      expect(help.stdout).toContain('--port <port>');
    } finally {
      await elsewhere.cleanup();
    }
  }, 600_000);
});
