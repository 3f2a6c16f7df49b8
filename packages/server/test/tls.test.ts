import { writeFile } from 'node:fs/promises';
import { get as httpsGet } from 'node:https';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeSelfSignedCertificate } from '@tandem/testkit';
import { io } from 'socket.io-client';
import { runServe } from '../src/index.js';
import { connectSocket, tempDir, TestClient, TOKENS } from './server-harness.js';

/**
 * `tandem serve --tls-cert FILE --tls-key FILE` (contract "Sharing one session", TLS): HTTPS and
 * WSS with a self-signed certificate made here; a client that trusts the certificate connects, one
 * that does not is refused by TLS, and a bad pair of files stops the server with a sentence.
 */
describe('TLS', () => {
  it('serves HTTPS and WSS: the first line says https, a client trusting the certificate drives, the web page is served', async () => {
    const dir = (await tempDir('tandem-tls-')).path;
    const cert = await makeSelfSignedCertificate(dir);
    const page = (await tempDir('tandem-tls-page-')).path;
    await writeFile(join(page, 'index.html'), '<!doctype html><title>page-over-tls</title>\n');
    const printed: string[] = [];
    const stdout = { write: (text: string) => printed.push(text) } as unknown as NodeJS.WritableStream;
    const { parseServeArgs } = await import('../src/serve/run-serve.js');
    const server = await runServe({
      ...parseServeArgs(['--port', '0', '--data-dir', dir, '--tls-cert', cert.certFile, '--tls-key', cert.keyFile]),
      env: { TANDEM_TOKEN: TOKENS.control, TANDEM_VIEW_TOKEN: TOKENS.view, TANDEM_WEB_DIR: page },
      stdout,
      handleSignals: false,
    });
    try {
      expect(printed.join('').split('\n')[0]).toMatch(/^tandem listening on https:\/\/127\.0\.0\.1:\d+$/);
      expect(server.url).toMatch(/^https:/);
      const socket = io(server.url, {
        auth: { token: TOKENS.control, name: 'ana' },
        transports: ['websocket'],
        reconnection: false,
        forceNew: true,
        ca: cert.certPem,
      });
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', resolve);
        socket.once('connect_error', reject);
      });
      const client = new TestClient(socket);
      try {
        const { session } = await client.ok('session:create', { title: 'over tls' });
        expect(session.title).toBe('over tls');
        // The web viewer's page comes over HTTPS from the same port.
        const body = await new Promise<string>((resolve, reject) => {
          const request = httpsGet(server.url, { ca: cert.certPem }, (response) => {
            let text = '';
            response.setEncoding('utf8');
            response.on('data', (chunk: string) => {
              text += chunk;
            });
            response.on('end', () => resolve(`${response.statusCode} ${text}`));
          });
          request.once('error', reject);
        });
        expect(body).toMatch(/^200 .*page-over-tls/s);
      } finally {
        client.close();
      }
      // Without trusting the certificate, TLS refuses the connection before any token is sent.
      const untrusting = connectSocket(server.url, { token: TOKENS.control });
      const failure = await new Promise<Error>((resolve) => untrusting.once('connect_error', resolve));
      untrusting.close();
      expect(String((failure as Error & { description?: { message?: string } }).description?.message ?? failure.message)).toMatch(
        /self[- ]signed|certificate/i,
      );
    } finally {
      await server.close();
    }
  });

  it('refuses half a pair, a missing file and a key of another certificate, each with a sentence', async () => {
    const { parseServeArgs } = await import('../src/serve/run-serve.js');
    expect(() => parseServeArgs(['--tls-cert', 'cert.pem'])).toThrow(/--tls-cert and --tls-key go together/);
    const dir = (await tempDir('tandem-tls-')).path;
    const other = (await tempDir('tandem-tls-')).path;
    const cert = await makeSelfSignedCertificate(dir);
    const second = await makeSelfSignedCertificate(other);
    const serve = (certFile: string, keyFile: string) =>
      runServe({ ...parseServeArgs(['--port', '0', '--data-dir', dir, '--tls-cert', certFile, '--tls-key', keyFile]), env: {}, handleSignals: false });
    await expect(serve(`${dir}/missing.pem`, cert.keyFile)).rejects.toThrow(/certificate \(--tls-cert\) .*missing\.pem does not exist/);
    await expect(serve(cert.keyFile, cert.keyFile)).rejects.toThrow(/holds no PEM certificate/);
    await expect(serve(cert.certFile, second.keyFile)).rejects.toThrow(/key belongs to the certificate/);
  });
});
