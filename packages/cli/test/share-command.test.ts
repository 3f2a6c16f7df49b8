import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TandemClient } from '@tandem/tui';
import { parseShareDuration, formatDuration } from '../src/share-duration.js';
import { runTandem } from './cli-runner.js';
import { startServerFixture, type ServerFixture } from './server-fixture.js';

/**
 * `tandem share`, `tandem share ls`, `tandem share revoke` (contract "Sharing one session"): the
 * real CLI against a real server. The printed link, attach line and token work; revoking closes
 * the holder's connection; bad input is one sentence and a non-zero exit.
 */
let fixture: ServerFixture;
beforeAll(async () => {
  fixture = await startServerFixture('share-test');
}, 240_000);
afterAll(async () => {
  await fixture?.close();
});

const connection = () => ['--url', fixture.server.url, '--token', fixture.tokens.control];

async function whoami(token: string): Promise<{ client: TandemClient; me: Awaited<ReturnType<TandemClient['request']>> }> {
  const client = new TandemClient(fixture.server.url, { token, name: 'someone' });
  await client.ready();
  return { client, me: await client.request('client:whoami', {}) };
}

describe('tandem share', () => {
  it('prints a web link, an attach line and the token; the token is that role for that session, under that name', async () => {
    const run = await runTandem(['share', fixture.sessionId.slice(0, 8), '--role', 'approver', '--name', 'carla', '--expires', '2h', ...connection()]);
    expect(run.code, run.stderr).toBe(0);
    const token = /token: +(tsh_\S+)/.exec(run.stdout)?.[1];
    expect(token).toBeDefined();
    expect(run.stdout).toContain(`${fixture.server.url}/?session=${fixture.sessionId}#token=${token}`);
    expect(run.stdout).toContain(`tandem attach ${fixture.sessionId} --url ${fixture.server.url} --token ${token}`);
    expect(run.stdout).toMatch(/carla as approver: they can watch this session and answer its permission requests/);
    expect(run.stdout).toMatch(/note: the server listens on this machine only/);
    const { client, me } = await whoami(token!);
    try {
      expect(me).toMatchObject({ kind: 'share', name: 'carla', share: { sessionId: fixture.sessionId, role: 'approver' } });
      const expiresAt = Date.parse((me as { share: { expiresAt: string } }).share.expiresAt);
      expect(Math.abs(expiresAt - Date.now() - 2 * 3600_000)).toBeLessThan(10 * 60_000);
    } finally {
      client.close();
    }
  }, 180_000);

  it('--json prints { share, token, url, attach }; ls lists it with its connection; revoke by prefix closes it', async () => {
    const run = await runTandem(['share', fixture.sessionId, '--role', 'driver', '--name', 'bob', '--json', ...connection()]);
    expect(run.code, run.stderr).toBe(0);
    const created = JSON.parse(run.stdout) as { share: { id: string; role: string; name: string }; token: string; url: string; attach: string };
    expect(created.share).toMatchObject({ role: 'driver', name: 'bob' });
    expect(created.url).toBe(`${fixture.server.url}/?session=${fixture.sessionId}#token=${created.token}`);
    expect(created.attach).toContain(`--token ${created.token}`);

    const { client } = await whoami(created.token);
    const closed = new Promise<string>((resolve) => {
      client.subscribe((signal) => {
        if (signal.kind === 'connection' && signal.connection.status === 'refused') resolve(signal.connection.message);
      });
    });
    const ls = await runTandem(['share', 'ls', ...connection()]);
    expect(ls.code, ls.stderr).toBe(0);
    expect(ls.stdout).toMatch(new RegExp(`${created.share.id}\\s+${fixture.sessionId.slice(0, 8)}\\s+bob\\s+driver\\s+active\\s+1\\s`));
    const lsJson = JSON.parse((await runTandem(['share', 'ls', '--json', ...connection()])).stdout) as Array<{ id: string; connected: number }>;
    expect(lsJson.find((s) => s.id === created.share.id)?.connected).toBe(1);

    const revoke = await runTandem(['share', 'revoke', created.share.id.slice(0, 7), ...connection()]);
    expect(revoke.code, revoke.stderr).toBe(0);
    expect(revoke.stdout).toBe(`revoked ${created.share.id} (bob, driver of session ${fixture.sessionId.slice(0, 8)}); closed 1 connection\n`);
    expect(await closed).toMatch(/your share of this session was revoked by .*; ask its host/);
    client.close();
    const after = await runTandem(['share', 'ls', ...connection()]);
    expect(after.stdout).toMatch(new RegExp(`${created.share.id}.*revoked by`));
  }, 180_000);

  it('refuses bad input with one sentence: role, duration, session, no server, the view token', async () => {
    const role = await runTandem(['share', fixture.sessionId, '--role', 'boss', ...connection()]);
    expect(role.code).not.toBe(0);
    expect(role.stderr).toContain('expected viewer, approver, driver, got "boss"');
    const duration = await runTandem(['share', fixture.sessionId, '--expires', 'soon', ...connection()]);
    expect(duration.stderr).toContain('expected a duration like 30m, 2h or 7d, got "soon"');
    const long = await runTandem(['share', fixture.sessionId, '--expires', '31d', ...connection()]);
    expect(long.stderr).toContain('a share lasts at most 30 days');
    const session = await runTandem(['share', 'nope', ...connection()]);
    expect(session.code).toBe(1);
    expect(session.stderr).toContain('no session "nope" on this server');
    const noServer = await runTandem(['share', '--data-dir', fixture.project.path]);
    expect(noServer.code).toBe(1);
    expect(noServer.stderr).toContain('no local tandem server is running');
    const unknown = await runTandem(['share', 'revoke', 'sh_nothing', ...connection()]);
    expect(unknown.stderr).toContain('no share "sh_nothing"; tandem share ls lists them');
    const viewToken = await runTandem(['share', fixture.sessionId, '--url', fixture.server.url, '--token', fixture.tokens.view]);
    expect(viewToken.code).toBe(1);
    expect(viewToken.stderr).toContain('share:create needs the control token');
  }, 180_000);
});

describe('share durations', () => {
  it('reads 30m, 2h, 7d, 1w and writes them back the same way', () => {
    expect(parseShareDuration('30m')).toBe(1800);
    expect(parseShareDuration('2h')).toBe(7200);
    expect(parseShareDuration('7d')).toBe(604_800);
    expect(parseShareDuration('1w')).toBe(604_800);
    expect(() => parseShareDuration('0m')).toThrow(/expected a duration/);
    expect(() => parseShareDuration('2 hours')).toThrow(/expected a duration/);
    expect(formatDuration(7200)).toBe('2h');
    expect(formatDuration(5400)).toBe('90m');
    expect(formatDuration(86_400)).toBe('1d');
  });
});
