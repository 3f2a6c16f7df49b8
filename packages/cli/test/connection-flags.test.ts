import type { RunningServer } from '@tandem/server';
import { type FakeModelServer, makeTempDir, type TempDir } from '@tandem/testkit';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { tandemShellLine } from './cli-runner.js';
import { startServerFixture, type ServerFixture } from './server-fixture.js';
import { Tmux } from './tmux.js';

// Every command takes the same connection options: `tandem --url URL` opens that server's TUI as
// `tandem attach --url URL` does, and `tandem attach --port N` reaches the server on this
// machine's port N. Each runs with an empty data directory, so falling back to "the local
// server" (or starting one) would show on screen instead of the fixture's session.

let fixture: ServerFixture;
let fake: FakeModelServer;
let server: RunningServer;
let emptyData: TempDir;
const tmux = new Tmux();
const IDLE = /driver │ idle/;

beforeAll(async () => {
  fixture = await startServerFixture('flags-test');
  ({ fake, server } = fixture);
  emptyData = await makeTempDir('tandem-flags-empty-');
}, 600_000);

afterAll(async () => {
  tmux.kill();
  await fixture?.close();
  await emptyData?.cleanup();
});

describe('connection options on every command', () => {
  it('tandem --url URL --token T -r SESSION opens that server session, and a turn answers', async () => {
    const args = ['--url', server.url, '--token', fixture.tokens.control, '-r', fixture.sessionId, '--data-dir', emptyData.path, '--name', 'uma'];
    tmux.start('root-url', tandemShellLine(args));
    await tmux.waitFor('root-url', (s) => s.includes('flags-test') && IDLE.test(s), 240_000);
    fake.enqueue({ text: 'Reached over --url.' });
    tmux.type('root-url', 'hello', 'Enter');
    await tmux.waitFor('root-url', (s) => s.includes('Reached over --url.') && IDLE.test(s));
  }, 600_000);

  it('tandem attach SESSION --port N reaches the server on port N', async () => {
    const port = new URL(server.url).port;
    const args = ['attach', fixture.sessionId, '--port', port, '--token', fixture.tokens.control, '--data-dir', emptyData.path, '--name', 'pia'];
    tmux.start('attach-port', tandemShellLine(args));
    await tmux.waitFor('attach-port', (s) => s.includes('flags-test') && IDLE.test(s), 240_000);
  }, 600_000);
});
