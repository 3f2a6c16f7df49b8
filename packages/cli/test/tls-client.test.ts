import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runServe, type RunningServer } from '@tandem/server';
import { makeSelfSignedCertificate, makeTempDir, type SelfSignedCertificate, type TempDir } from '@tandem/testkit';
import { runTandem } from './cli-runner.js';

/**
 * The CLI over TLS: a real server with a self-signed certificate made here. `--ca FILE` trusts
 * it; without it the client stops at once with a sentence saying what to pass (no retry loop);
 * a local server's own certificate (server.json) is trusted without flags.
 */
const TOKENS = { TANDEM_TOKEN: 'control-token-for-tls', TANDEM_VIEW_TOKEN: 'view-token-for-tls' };
let dir: TempDir;
let cert: SelfSignedCertificate;
let server: RunningServer;

beforeAll(async () => {
  dir = await makeTempDir('tandem-cli-tls-');
  cert = await makeSelfSignedCertificate(dir.path);
  await writeFile(join(dir.path, 'config.json'), '{}\n');
  server = await runServe({
    host: '127.0.0.1',
    port: 0,
    dataDir: dir.path,
    env: { ...process.env, ...TOKENS },
    handleSignals: false,
    stdout: new Writable({ write: (_chunk, _encoding, done) => done() }),
    tls: { cert: cert.certFile, key: cert.keyFile },
  });
}, 120_000);
afterAll(async () => {
  await server?.close();
  await dir?.cleanup();
});

describe('the CLI over https', () => {
  it('--ca trusts the self-signed certificate; without it one sentence says what to pass', async () => {
    expect(server.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const withCa = await runTandem(['ls', '--url', server.url, '--token', TOKENS.TANDEM_TOKEN, '--ca', cert.certFile]);
    expect(withCa.code, withCa.stderr).toBe(0);
    expect(withCa.stdout).toContain('no sessions yet');
    const without = await runTandem(['ls', '--url', server.url, '--token', TOKENS.TANDEM_TOKEN]);
    expect(without.code).toBe(1);
    expect(without.stderr).toMatch(/presents a certificate it does not trust \(\w*SELF_SIGNED\w*\); pass --ca FILE/);
    const badCa = await runTandem(['ls', '--url', server.url, '--token', TOKENS.TANDEM_TOKEN, '--ca', join(dir.path, 'nothing.pem')]);
    expect(badCa.stderr).toContain('cannot read --ca');
  }, 180_000);

  it('finds the local https server through server.json and trusts its own certificate', async () => {
    const status = await runTandem(['status', '--json', '--data-dir', dir.path], { ...process.env, ...TOKENS });
    expect(status.code, status.stderr).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ up: true, url: server.url });
  }, 180_000);
});
