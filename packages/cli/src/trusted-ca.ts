import { readFile } from 'node:fs/promises';
import { rootCertificates } from 'node:tls';

/**
 * What a client trusts for an `https://` server: the usual roots plus the PEM certificate(s) in
 * `file` (a dev box's self-signed certificate, or a private CA). Node's `ca` replaces the roots,
 * so they are added back: a certificate from a public CA keeps working with --ca too.
 */
export async function trustedCa(file: string, what = '--ca'): Promise<string[]> {
  let pem: string;
  try {
    pem = await readFile(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new Error(`cannot read ${what} ${file}: ${code === 'ENOENT' ? 'no such file' : (err as Error).message}`);
  }
  if (!pem.includes('-----BEGIN CERTIFICATE-----')) throw new Error(`${what} ${file} holds no PEM certificate (-----BEGIN CERTIFICATE-----)`);
  return [...rootCertificates, pem];
}
