import { TandemClient, type ClientSignal } from '@tandem/tui';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tandemShellLine } from './cli-runner.js';
import { startServerFixture, type ServerFixture } from './server-fixture.js';
import { Tmux } from './tmux.js';

// Shares in a real terminal against a real server: the host types `/share approver carla`, the
// printed token works for a socket.io client and for `tandem attach` (whose TUI says what the
// share allows and answers a permission request while watching), a viewer share sees the
// question read-only, and `/shares` lists who is connected and revokes with r, y: the share's
// sockets are closed and its TUI says why and closes on a key. Every step waits on the screen
// or on a client's signal, never on time.

let fixture: ServerFixture;
const tmux = new Tmux();
/** Wide enough that the link and the attach line are not wrapped, so the test reads them whole. */
const WIDE = { columns: 200, rows: 45 };
const clients: TandemClient[] = [];

beforeAll(async () => {
  fixture = await startServerFixture('shares-test');
  const { server, sessionId, tokens } = fixture;
  tmux.start('host', tandemShellLine(['attach', sessionId, '--url', server.url, '--token', tokens.control, '--name', 'ana']), {}, WIDE);
  // OSC 52 from a program inside tmux reaches tmux's paste buffer with set-clipboard on.
  tmux.run(['set-option', '-g', 'set-clipboard', 'on']);
  await tmux.waitFor('host', (s) => /driver │ .*idle/.test(s), 180_000);
}, 600_000);

afterAll(async () => {
  for (const client of clients) client.close();
  tmux.kill();
  await fixture?.close();
});

/** A real socket.io client holding `token`; resolves once connected. */
async function connectWith(token: string, name: string): Promise<TandemClient> {
  const client = new TandemClient(fixture.server.url, { token, name });
  clients.push(client);
  await client.ready(60_000);
  return client;
}

/** Resolves with the first connection status of `client` that passes `test` (from now on). */
function nextConnection(client: TandemClient, test: (signal: Extract<ClientSignal, { kind: 'connection' }>['connection']) => boolean) {
  return new Promise<Extract<ClientSignal, { kind: 'connection' }>['connection']>((resolve) => {
    const stop = client.subscribe((signal) => {
      if (signal.kind === 'connection' && test(signal.connection)) {
        stop();
        resolve(signal.connection);
      }
    });
  });
}

let link = '';
let attachArgs: string[] = [];
let token = '';
let probe: TandemClient;

describe('sharing the session from the TUI', () => {
  it('/share approver carla prints a web link and an attach line whose token works, and sends the link to the clipboard', async () => {
    const { server, sessionId } = fixture;
    tmux.type('host', '/share approver carla', 'Enter');
    const screen = await tmux.waitFor('host', (s) => /^ {2}terminal:\ntandem attach /m.test(s));
    expect(screen).toContain('share for carla: approver (you can watch this session and answer its permission requests)');
    expect(screen).toContain('the token is shown only this once');
    link = /^(http:\/\/\S+)$/m.exec(screen)?.[1] ?? '';
    expect(link).toMatch(new RegExp(`^${server.url.replace(/[.]/g, '\\.')}/\\?session=${sessionId}#token=tsh_[A-Za-z0-9_-]+$`));
    const attach = /^tandem attach (\S+) --url (\S+) --token (tsh_\S+)$/m.exec(screen);
    expect(attach?.slice(1, 3)).toEqual([sessionId, server.url]);
    token = attach?.[3] ?? '';
    expect(link.endsWith(`#token=${token}`)).toBe(true);
    attachArgs = ['attach', sessionId, '--url', server.url, '--token', token];
    await tmux.waitFor('host', "sent to the terminal's clipboard");
    expect(tmux.run(['show-buffer'])).toBe(link);

    probe = await connectWith(token, 'mallory');
    expect(await probe.request('client:whoami', {})).toMatchObject({
      kind: 'share',
      name: 'carla',
      share: { sessionId, role: 'approver', rights: ['view', 'approve'] },
    });
  }, 600_000);

  it('a bad role gets the roles listed', async () => {
    tmux.type('host', '/share boss carla', 'Enter');
    await tmux.waitFor('host', '/share: "boss" is not a role; the roles are viewer, approver, driver (e.g. /share approver carla)');
  }, 600_000);

  it("carla's TUI says what the share allows and answers a permission request; a viewer share only watches", async () => {
    const { fake, sessionId, tokens, server } = fixture;
    // The handshake name is ignored: the share's name is who is here.
    tmux.start('carla', tandemShellLine([...attachArgs, '--name', 'mallory']));
    await tmux.waitFor('carla', 'you joined as carla with a share · approver: you can watch this session and answer its permission requests', 180_000);
    await tmux.waitFor('host', 'with carla (approver)');

    const host = await connectWith(tokens.control, 'setup');
    const viewerShare = await host.request('share:create', { sessionId, name: 'dan', role: 'viewer' });
    tmux.start('dan', tandemShellLine(['attach', sessionId, '--url', server.url, '--token', viewerShare.token]));
    await tmux.waitFor('dan', 'you joined as dan with a share · viewer: you can watch this session', 180_000);

    fake.enqueue({ toolCalls: [{ name: 'run_command', args: { command: 'touch shared.txt' } }] }, { text: 'Touched it.' });
    tmux.type('host', 'touch the file', 'Enter');
    const watching = await tmux.waitFor('dan', (s) => s.includes('Permission needed: run_command'));
    expect(watching).toContain('watch-only: a driver or an approver answers this request');
    expect(watching).not.toContain('[y] allow once');

    const asked = await tmux.waitFor('carla', (s) => s.includes('Permission needed: run_command') && s.includes('[d] deny forever'));
    // A share may not store a rule for the whole workspace: no allow forever.
    expect(asked).not.toContain('[a] allow forever');
    await tmux.answerPermission('carla', 'y');
    await tmux.waitFor('host', (s) => s.includes('✔ allowed once by carla') && s.includes('Touched it.'));
    await tmux.waitFor('dan', '✔ allowed once by carla');
    await tmux.waitFor('carla', (s) => s.includes('Touched it.') && !s.includes('Permission needed'));
  }, 600_000);

  it('/shares lists who is connected; r then y revokes: the sockets close, the token is refused, its TUI says why and closes on a key', async () => {
    tmux.type('host', '/shares', 'Enter');
    // carla's share: the probe client and carla's TUI.
    const listed = await tmux.waitFor('host', (s) => /carla +approver +2 connected +expires in 23 h \d+ m/.test(s));
    expect(listed).toMatch(/dan +viewer +1 connected/);
    expect(listed).toContain('r revoke');

    // Select carla's row (the list is newest first: dan, then carla) and revoke it.
    tmux.type('host', '', 'Down');
    // The selected row's detail shows under the list.
    await tmux.waitFor('host', 'rights view, approve ·');
    tmux.type('host', 'r');
    await tmux.waitFor('host', "? Revoke carla's share (approver)? They are disconnected at once and the link stops working. y / n");
    const ended = nextConnection(probe, (c) => c.status === 'refused');
    tmux.type('host', 'y');
    expect(await ended).toMatchObject({ status: 'refused', reason: 'share_ended', message: expect.stringContaining('revoked by ana') });
    await tmux.waitFor('host', (s) => s.includes("revoked carla's share (approver)") && /carla +approver +(\d connected +)?revoked by ana/.test(s));

    await expect(connectWith(token, 'carla-again')).rejects.toThrow(/unauthorized/);

    await tmux.waitFor('carla', (s) => s.includes('your share of this session was revoked by ana') && s.includes('any key closes this screen'));
    tmux.type('carla', 'x');
    const closed = await tmux.waitFor('carla', 'TANDEM EXITED 1');
    expect(closed).toContain('tandem: your share of this session was revoked by ana');
    // dan's share is untouched.
    expect(tmux.capture('dan')).not.toContain('revoked');
  }, 600_000);
});
