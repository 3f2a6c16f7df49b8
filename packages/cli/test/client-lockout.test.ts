import { Writable } from 'node:stream';
import { runServe, type RunningServer } from '@tandem/server';
import { makeTempDir, type TempDir } from '@tandem/testkit';
import { TandemClient } from '@tandem/tui';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The TUI's client against a real server's lockout: after 20 wrong tokens from this address, a
 * client with the right token is told at once that the address is locked out (not, ten seconds
 * later, that the server may not be running).
 */
let dataDir: TempDir;
let server: RunningServer;
const TOKEN = 'control-token-for-the-lockout-test';

beforeAll(async () => {
  dataDir = await makeTempDir('tandem-lockout-');
  server = await runServe({
    host: '127.0.0.1',
    port: 0,
    dataDir: dataDir.path,
    env: { ...process.env, TANDEM_TOKEN: TOKEN, TANDEM_VIEW_TOKEN: `${TOKEN}-view` },
    handleSignals: false,
    stdout: new Writable({ write: (_chunk, _encoding, done) => done() }),
  });
}, 120_000);
afterAll(async () => {
  await server?.close();
  await dataDir?.cleanup();
});

async function tryToken(token: string): Promise<string> {
  const client = new TandemClient(server.url, { token, name: 'guesser' });
  try {
    await client.ready(60_000);
    return 'connected';
  } catch (err) {
    return (err as Error).message;
  } finally {
    client.close();
  }
}

describe('a locked-out address', () => {
  it('is told so on its first connection, in one sentence', async () => {
    for (let i = 0; i < 20; i++) expect(await tryToken(`wrong-${i}`)).toMatch(/unauthorized/);
    expect(await tryToken(TOKEN)).toMatch(/locked out for a minute after too many refused tokens; try again in a minute/);
  }, 180_000);
});
