import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomicSync } from '@tandem/core';

/** The key file (32 random bytes, mode 0600) and the encrypted values, both in the data dir. */
export const SECRET_KEY_FILE = 'secrets.key';
export const SECRET_VALUES_FILE = 'secrets.json';

const NAME = /^[A-Za-z0-9_.:/-]{1,200}$/;

interface Sealed {
  iv: string;
  tag: string;
  data: string;
}

interface SecretsFile {
  version: 1;
  secrets: Record<string, Sealed>;
}

/**
 * Named secrets encrypted at rest (AES-256-GCM, a fresh 12-byte IV per value, the name bound as
 * associated data so a value cannot be moved to another name). The key is a random 32-byte file
 * of mode 0600 beside the values.
 *
 * Threat model: the values never appear in clear in a config file, a backup or paste of one, or
 * anything the agent's file tools read in the workspace; the data dir is outside the workspace.
 * It does NOT protect against someone who can read the data dir as this user (the key is there)
 * — that is the same trust as `~/.ssh`. Use the OS keychain for stronger guarantees.
 */
export class SecretStore {
  private constructor(
    private readonly dir: string,
    private readonly key: Buffer,
    private file: SecretsFile,
  ) {}

  /** Opens (creating if needed) the store of `dataDir`. Throws a readable error for a damaged key file. */
  static open(dataDir: string): SecretStore {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    const keyPath = join(dataDir, SECRET_KEY_FILE);
    if (!existsSync(keyPath)) writeFileSync(keyPath, randomBytes(32), { mode: 0o600, flag: 'wx' });
    if ((statSync(keyPath).mode & 0o077) !== 0) chmodSync(keyPath, 0o600);
    const key = readFileSync(keyPath);
    if (key.length !== 32)
      throw new Error(
        `${keyPath} is not a 32-byte key (it has ${key.length} bytes); the secrets in ${SECRET_VALUES_FILE} cannot be read. Restore the key file, or delete both files and add the secrets again.`,
      );
    return new SecretStore(dataDir, key, readValues(join(dataDir, SECRET_VALUES_FILE)));
  }

  names(): string[] {
    return Object.keys(this.file.secrets).sort();
  }

  has(name: string): boolean {
    return Object.hasOwn(this.file.secrets, name);
  }

  /** The value in clear, or undefined when there is none. Throws when the stored value was tampered with. */
  get(name: string): string | undefined {
    const sealed = this.file.secrets[name];
    if (!sealed) return undefined;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(sealed.iv, 'base64'));
      decipher.setAAD(Buffer.from(name, 'utf8'));
      decipher.setAuthTag(Buffer.from(sealed.tag, 'base64'));
      return Buffer.concat([decipher.update(Buffer.from(sealed.data, 'base64')), decipher.final()]).toString('utf8');
    } catch {
      throw new Error(`secret "${name}" cannot be decrypted (wrong ${SECRET_KEY_FILE} or a damaged ${SECRET_VALUES_FILE}); set it again`);
    }
  }

  set(name: string, value: string): void {
    if (!NAME.test(name)) throw new Error(`invalid secret name "${name}": use letters, digits and _ . : / - (at most 200)`);
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(name, 'utf8'));
    const data = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
    const secrets = { ...this.file.secrets, [name]: { iv: iv.toString('base64'), tag: cipher.getAuthTag().toString('base64'), data: data.toString('base64') } };
    this.save({ version: 1, secrets });
  }

  /** Removes one secret; false when there was none. */
  delete(name: string): boolean {
    if (!this.has(name)) return false;
    const secrets = { ...this.file.secrets };
    delete secrets[name];
    this.save({ version: 1, secrets });
    return true;
  }

  /** Re-reads the values file (another process, e.g. `tandem mcp add`, may have changed it). */
  reload(): void {
    this.file = readValues(join(this.dir, SECRET_VALUES_FILE));
  }

  private save(next: SecretsFile): void {
    const path = join(this.dir, SECRET_VALUES_FILE);
    writeFileAtomicSync(path, `${JSON.stringify(next, null, 2)}\n`);
    this.file = next;
  }
}

function readValues(path: string): SecretsFile {
  if (!existsSync(path)) return { version: 1, secrets: {} };
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new Error(`${path} is not valid JSON (${(err as Error).message}); fix or delete it and add the secrets again`);
  }
  const secrets = (parsed as { secrets?: unknown } | null)?.secrets;
  if (!secrets || typeof secrets !== 'object') throw new Error(`${path} has no "secrets" object; fix or delete it`);
  return { version: 1, secrets: secrets as Record<string, Sealed> };
}
