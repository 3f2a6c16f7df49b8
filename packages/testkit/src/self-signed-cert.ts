import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface SelfSignedCertificate {
  /** PEM files in `dir`. */
  certFile: string;
  keyFile: string;
  /** The certificate's PEM text: what a client trusts (`ca`). */
  certPem: string;
}

/**
 * A fresh self-signed certificate for `localhost` and 127.0.0.1 (EC P-256, one day), made with
 * the openssl command line into `dir`: what a test's HTTPS server presents and its clients trust.
 */
export async function makeSelfSignedCertificate(dir: string): Promise<SelfSignedCertificate> {
  const certFile = join(dir, 'cert.pem');
  const keyFile = join(dir, 'key.pem');
  await run('openssl', [
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-keyout',
    keyFile,
    '-out',
    certFile,
    '-days',
    '1',
    '-subj',
    '/CN=localhost',
    '-addext',
    'subjectAltName=DNS:localhost,IP:127.0.0.1',
  ]);
  return { certFile, keyFile, certPem: await readFile(certFile, 'utf8') };
}
