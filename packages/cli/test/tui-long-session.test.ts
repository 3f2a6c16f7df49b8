import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { runServe, type RunningServer } from '@tandem/server';
import { appendUserMessages, makeTempDir, type TempDir } from '@tandem/testkit';
import { TandemClient } from '@tandem/tui';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tandemShellLine } from './cli-runner.js';
import { Tmux } from './tmux.js';

// A long session in a real terminal: a real server whose session log holds 1,500 messages, and
// `tandem attach` in tmux. The TUI attaches with a tail (one screen's worth, not the log) and
// PgUp at the top of the transcript brings the older events, page by page.

const MESSAGES = 1500;
const SIZE = { columns: 100, rows: 30 };

let dataDir: TempDir;
let project: TempDir;
let server: RunningServer | undefined;
let sessionId = '';
let token = '';
const tmux = new Tmux();

function serve(): Promise<RunningServer> {
  const env: NodeJS.ProcessEnv = { ...process.env, TANDEM_MODEL: 'openai/gpt-4.1-mini', OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' };
  delete env.TANDEM_TOKEN;
  delete env.TANDEM_VIEW_TOKEN;
  const sink = new Writable({ write: (_chunk, _encoding, done) => done() });
  return runServe({ host: '127.0.0.1', port: 0, dataDir: dataDir.path, env, handleSignals: false, stdout: sink });
}

beforeAll(async () => {
  dataDir = await makeTempDir('tandem-long-data-');
  project = await makeTempDir('tandem-long-project-');
  server = await serve();
  token = (await readFile(join(dataDir.path, 'token'), 'utf8')).trim();
  const client = new TandemClient(server.url, { token, name: 'setup' });
  await client.ready();
  sessionId = (await client.request('session:create', { cwd: project.path, title: 'long-session' })).session.id;
  client.close();
  await server.close();
  // The log grows while the server is stopped; the restarted server loads it.
  await appendUserMessages(dataDir.path, sessionId, MESSAGES);
  server = await serve();
}, 120_000);

afterAll(async () => {
  tmux.kill();
  await server?.close();
  await dataDir?.cleanup();
  await project?.cleanup();
});

describe('a long session in the TUI', () => {
  it('opens with the tail and brings older messages on PgUp at the top', async () => {
    tmux.start('long', tandemShellLine(['attach', sessionId, '--url', server!.url, '--token', token, '--name', 'ana']), {}, SIZE);
    const first = await tmux.waitFor('long', (s) => /question 1500\b/.test(s) && s.includes('long-session'), 180_000);
    expect(first).not.toContain('TANDEM EXITED');
    // The tail is 200 events for 30 rows: message 1300 and older are not in the view yet.
    const seen = new Set<number>();
    let paged = false;
    let pressedOn: string | undefined;
    // Page up, looking at every screen on the way: the tail's messages, then the older page's.
    await tmux.waitFor(
      'long',
      (s) => {
        for (const match of s.matchAll(/question (\d+)\b/g)) seen.add(Number(match[1]));
        // The hint line says so when a page came from the server (a full replay would never ask).
        paged ||= s.includes('older events loaded');
        if (paged && /question 1250\b/.test(s)) return true;
        // One PageUp per screen: the next waits until the last one showed, so no page scrolls by
        // unseen on a loaded machine (where keys pressed at every poll pile up between captures).
        if (s === pressedOn) return false;
        pressedOn = s;
        tmux.type('long', '', 'PageUp');
        return false;
      },
      180_000,
    );
    expect(seen.has(1301)).toBe(true);
    expect(paged).toBe(true);
    // Every message between the oldest seen and the newest was on some screen: no gap at the page boundary.
    const oldest = Math.min(...seen);
    expect(oldest).toBeLessThanOrEqual(1250);
    for (let n = oldest; n <= MESSAGES; n++) expect(seen.has(n), `question ${n}`).toBe(true);
  }, 600_000);
});
