import { chmod, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeTempDir, type TempDir } from '@tandem/testkit';
import { TandemClient } from '@tandem/tui';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachDriverAndViewer, sessionEvents, startServerFixture, type ServerFixture } from './server-fixture.js';
import { Tmux } from './tmux.js';

// Managing a session from the TUI in a real terminal, against the real server: /model, the
// approval mode (Shift-Tab), /title — each seen by a second terminal —, /clear after its y/n
// question, Ctrl-G composing in $VISUAL, and the session chooser (F7). Every step waits for
// the screen state it needs.

let fixture: ServerFixture;
let scripts: TempDir;
const tmux = new Tmux();

beforeAll(async () => {
  fixture = await startServerFixture('manage-test');
  scripts = await makeTempDir('tandem-editor-');
  // A scripted "editor": writes two lines into the file it is given, as a person would.
  const editor = join(scripts.path, 'fake-editor.sh');
  await writeFile(editor, '#!/bin/sh\nprintf "from the editor\\nsecond line\\n" > "$1"\n');
  await chmod(editor, 0o755);
  await attachDriverAndViewer(tmux, fixture, { VISUAL: editor });
}, 600_000);

afterAll(async () => {
  tmux.kill();
  await fixture?.close();
  await scripts?.cleanup();
});

describe('managing the session from the TUI', () => {
  it('/model, Shift-Tab and /title change the session for everyone attached', async () => {
    tmux.type('driver', '/model openai/gpt-4.1', 'Enter');
    await tmux.waitFor('viewer', (s) => s.includes('· model → openai/gpt-4.1 (by ana)') && / openai\/gpt-4\.1 │/.test(s));
    await tmux.waitFor('driver', / openai\/gpt-4\.1 │ ask │ driver/);

    tmux.type('driver', '', 'BTab');
    await tmux.waitFor('viewer', (s) => s.includes('· approval mode → auto-edit (by ana)') && /│ auto-edit │ viewer/.test(s));
    await tmux.waitFor('driver', /│ auto-edit │ driver/);

    tmux.type('driver', '/mode nonsense', 'Enter');
    await tmux.waitFor('driver', '! /mode: "nonsense" is not a mode; use ask, auto-edit, read-only');

    tmux.type('driver', '/title renamed here', 'Enter');
    await tmux.waitFor('viewer', (s) => s.includes('· title → renamed here (by ana)') && s.includes('renamed here '));
  }, 600_000);

  it('Ctrl-G composes the message in $VISUAL; Enter sends both lines', async () => {
    fixture.fake.enqueue({ text: 'Got your two lines.' });
    tmux.type('driver', '', 'C-g');
    await tmux.waitFor('driver', '› from the editor↵second line');
    tmux.type('driver', '', 'Enter');
    const screen = await tmux.waitFor('viewer', (s) => s.includes('Got your two lines.'));
    expect(screen).toContain('ana › from the editor');
    expect(screen).toContain('  second line');
  }, 600_000);

  it('/clear asks first; n keeps the conversation, y clears it for everyone', async () => {
    await tmux.waitFor('driver', /driver │ idle/);
    tmux.type('driver', '/clear', 'Enter');
    await tmux.waitFor('driver', '? Clear the conversation for everyone attached?');
    tmux.type('driver', 'n');
    await tmux.waitFor('driver', (s) => s.includes('cancelled: nothing was changed') && !s.includes('? Clear the conversation'));
    expect((await sessionEvents(fixture)).some((event) => event.type === 'conversation_cleared')).toBe(false);

    tmux.type('driver', '/clear', 'Enter');
    await tmux.waitFor('driver', '? Clear the conversation for everyone attached?');
    tmux.type('driver', 'y');
    await tmux.waitFor('viewer', '── conversation cleared by ana ──');
    expect((await sessionEvents(fixture)).filter((event) => event.type === 'conversation_cleared')).toHaveLength(1);
  }, 600_000);

  it('F7 lists the sessions; Enter switches this terminal to the selected one', async () => {
    const { server, tokens, project } = fixture;
    const setup = new TandemClient(server.url, { token: tokens.control, name: 'setup' });
    try {
      await setup.ready();
      await setup.request('session:create', { cwd: project.path, title: 'other-session' });
    } finally {
      setup.close();
    }
    tmux.type('driver', '', 'F7');
    const listed = await tmux.waitFor('driver', (s) => s.includes('sessions · 2 on this server') && s.includes('other-session'));
    expect(listed).toMatch(/\* \S+ +idle +renamed here +openai\/gpt-4\.1 +\d+ attached +\/\S+/);
    tmux.type('driver', '', 'Enter');
    await tmux.waitFor('driver', (s) => !s.includes('sessions · 2') && /other-session \S+ │/.test(s) && /driver │ idle/.test(s));
  }, 600_000);
});
