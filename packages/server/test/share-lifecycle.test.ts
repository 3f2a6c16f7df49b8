import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import pino from 'pino';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { CONNECT_ERROR_RATE_LIMITED, SHARE_ENDED_EVENT, type ShareEnded } from '@tandem/shared';
import { FakeClock } from '@tandem/testkit';
import type { Socket } from 'socket.io-client';
import { connectSocket, startTestServer, tempDir, TOKENS, type TestClient, type TestServer } from './server-harness.js';
import { idleModelFactory, ScriptedLoop } from './scripted-engine.js';

/**
 * A share from creation to its end (contract "Sharing one session"): revocation and expiry close
 * its sockets and refuse its token, shares survive a restart as hashes only, and an address that
 * keeps guessing is locked out for a while. Real servers, real sockets.
 */

function scripted(extra: Parameters<typeof startTestServer>[0] = {}): Promise<TestServer> {
  const loop = new ScriptedLoop(['ok']);
  return startTestServer({ engine: { runTurn: loop.runTurn }, modelFactory: idleModelFactory, ...extra });
}

/** Connects with `token`; resolves with the connected socket, or rejects with the connect_error. */
function handshake(url: string, token: string, name = 'guest'): Promise<Socket> {
  const socket = connectSocket(url, { token, name });
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', (err) => {
      socket.close();
      reject(err);
    });
  });
}

/** What the socket hears when its share ends, and its disconnect. */
function ending(socket: Socket): Promise<{ ended: ShareEnded | undefined; reason: string }> {
  let ended: ShareEnded | undefined;
  socket.on(SHARE_ENDED_EVENT, (payload: ShareEnded) => {
    ended = payload;
  });
  return new Promise((resolve) => socket.once('disconnect', (reason) => resolve({ ended, reason })));
}

async function shareOf(host: TestClient, role: 'viewer' | 'approver' | 'driver' = 'viewer', expiresInSec?: number) {
  const { session } = await host.ok('session:create', {});
  const created = await host.ok('share:create', { sessionId: session.id, name: 'bob', role, ...(expiresInSec ? { expiresInSec } : {}) });
  return { sessionId: session.id, ...created };
}

describe('revocation and expiry', () => {
  it('revoking closes every socket using the share at once, and the token is refused from then on', async () => {
    const s = await scripted();
    try {
      const host = await s.connect('ana');
      const { sessionId, share, token } = await shareOf(host, 'driver');
      const first = await handshake(s.url, token);
      const second = await handshake(s.url, token);
      const bob = new Promise<void>((resolve) => first.emit('session:attach', { sessionId, role: 'driver' }, () => resolve()));
      await bob;
      const endings = [ending(first), ending(second)];
      const { share: revoked } = await host.ok('share:revoke', { id: share.id });
      expect(revoked).toMatchObject({ id: share.id, revokedBy: 'ana', revokedAt: expect.any(String) });
      for (const end of await Promise.all(endings)) {
        expect(end).toEqual({ ended: { shareId: share.id, reason: 'revoked', by: 'ana' }, reason: 'io server disconnect' });
      }
      await expect(handshake(s.url, token)).rejects.toThrow('unauthorized');
      // The presence of the session no longer lists bob.
      const { sessions } = await host.ok('session:list', {});
      expect(sessions.find((x) => x.id === sessionId)?.clients).toBe(0);
      const { records } = await host.ok('audit:query', { sessionId });
      expect(records.find((r) => r.tool === 'share:revoked')).toMatchObject({ decidedBy: 'ana', callId: share.id });
    } finally {
      await s.stop();
    }
  });

  it('a share expires on time: its sockets are told why and closed, its token refused', async () => {
    const clock = new FakeClock({ start: Date.now() });
    // The guards' audit log flushes on a timer of this clock; they are not the subject here.
    const s = await scripted({ clock, guards: 'off' });
    try {
      const host = await s.connect('ana');
      const { share, token } = await shareOf(host, 'viewer', 2 * 3600);
      expect(Date.parse(share.expiresAt ?? '') - clock.now()).toBe(2 * 3600 * 1000);
      const socket = await handshake(s.url, token);
      const end = ending(socket);
      await clock.waitForSleepers(1);
      await clock.advance(2 * 3600 * 1000 - 1);
      expect(socket.connected).toBe(true);
      await clock.advance(1);
      expect(await end).toEqual({ ended: { shareId: share.id, reason: 'expired' }, reason: 'io server disconnect' });
      await expect(handshake(s.url, token)).rejects.toThrow('unauthorized');
      const { shares } = await host.ok('share:list', {});
      expect(shares).toEqual([expect.objectContaining({ id: share.id, connected: 0 })]);
    } finally {
      await s.stop();
    }
  });

  it('deleting a session revokes its shares', async () => {
    const s = await scripted();
    try {
      const host = await s.connect('ana');
      const { sessionId, token } = await shareOf(host, 'viewer');
      const socket = await handshake(s.url, token);
      const end = ending(socket);
      await host.ok('session:delete', { sessionId });
      expect((await end).ended).toMatchObject({ reason: 'revoked', by: 'session deleted' });
      await expect(handshake(s.url, token)).rejects.toThrow('unauthorized');
    } finally {
      await s.stop();
    }
  });
});

describe('kept as hashes, across restarts', () => {
  it('a share works after a restart; the data directory holds its hash (0600), never its token', async () => {
    const dataDir = (await tempDir('tandem-share-data-')).path;
    const first = await scripted({ dataDir });
    const host = await first.connect('ana');
    const { sessionId, token, share } = await shareOf(host, 'approver');
    await first.stop();

    const file = join(dataDir, 'shares.json');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const text = await readFile(file, 'utf8');
    expect(text).toContain(share.id);
    expect(text).not.toContain(token);
    expect(text).not.toContain(token.slice(4, 24));

    const second = await scripted({ dataDir });
    try {
      const bob = await second.connect('not-bob', token);
      expect(await bob.ok('client:whoami', {})).toMatchObject({ kind: 'share', name: 'bob', share: { sessionId, role: 'approver' } });
      expect((await bob.ok('session:list', {})).sessions.map((x) => x.id)).toEqual([sessionId]);
    } finally {
      await second.stop();
    }
  });
});

describe('guessing tokens', () => {
  it('20 refused handshakes lock the address out for 60 s, whatever token it sends then; logged once', async () => {
    const clock = new FakeClock({ start: Date.now() });
    const lines: string[] = [];
    const logger = pino(
      { level: 'warn' },
      new Writable({
        write(chunk, _enc, done) {
          lines.push(String(chunk));
          done();
        },
      }),
    );
    const s = await scripted({ clock, guards: 'off', logger });
    try {
      for (let i = 0; i < 20; i++) await expect(handshake(s.url, `guess-${i}`)).rejects.toThrow('unauthorized');
      // Locked: even the right token is refused now, and the lockout is not extended by trying.
      for (let i = 0; i < 5; i++) await expect(handshake(s.url, TOKENS.control)).rejects.toThrow(CONNECT_ERROR_RATE_LIMITED);
      expect(lines.filter((line) => line.includes('too many refused handshakes'))).toHaveLength(1);
      await clock.advance(59_999);
      await expect(handshake(s.url, TOKENS.control)).rejects.toThrow(CONNECT_ERROR_RATE_LIMITED);
      await clock.advance(1);
      const socket = await handshake(s.url, TOKENS.control);
      socket.close();
    } finally {
      await s.stop();
    }
  });

  it('refusals spread over more than 60 s do not lock anyone out', async () => {
    const clock = new FakeClock({ start: Date.now() });
    const s = await scripted({ clock, guards: 'off' });
    try {
      for (let i = 0; i < 19; i++) await expect(handshake(s.url, `guess-${i}`)).rejects.toThrow('unauthorized');
      await clock.advance(60_000);
      await expect(handshake(s.url, 'guess-again')).rejects.toThrow('unauthorized');
      const socket = await handshake(s.url, TOKENS.control);
      socket.close();
    } finally {
      await s.stop();
    }
  });
});
