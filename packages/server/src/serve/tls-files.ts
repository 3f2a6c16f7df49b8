import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { createSecureContext } from 'node:tls';

/** `--tls-cert FILE --tls-key FILE`, as absolute paths. */
export interface TlsFiles {
  cert: string;
  key: string;
}

/**
 * Reads the certificate and key for HTTPS and checks they make a usable pair before the server
 * starts: a missing file, a file that is no PEM, or a key that does not match the certificate
 * each fail with a sentence naming the file and what to do.
 */
export async function loadTlsFiles(files: TlsFiles): Promise<{ cert: Buffer; key: Buffer }> {
  const cert = await readPem(files.cert, 'certificate (--tls-cert)');
  const key = await readPem(files.key, 'private key (--tls-key)');
  if (!cert.toString('utf8').includes('-----BEGIN CERTIFICATE-----')) {
    throw new Error(`${files.cert} holds no PEM certificate (-----BEGIN CERTIFICATE-----); pass the certificate file as --tls-cert`);
  }
  try {
    createSecureContext({ cert, key });
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    throw new Error(`cannot use ${files.cert} with ${files.key}: ${reason}; check that the key belongs to the certificate and is PEM`);
  }
  return { cert, key };
}

export function resolveTlsFiles(cert: string | undefined, key: string | undefined): TlsFiles | undefined {
  if (cert === undefined && key === undefined) return undefined;
  if (cert === undefined || key === undefined) throw new Error('--tls-cert and --tls-key go together: pass both (a certificate and its private key, PEM)');
  return { cert: resolve(cert), key: resolve(key) };
}

async function readPem(file: string, what: string): Promise<Buffer> {
  try {
    return await readFile(file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new Error(`the ${what} ${file} does not exist`);
    if (code === 'EACCES') throw new Error(`cannot read the ${what} ${file}: permission denied`);
    throw new Error(`cannot read the ${what} ${file}: ${(err as Error).message}`);
  }
}
