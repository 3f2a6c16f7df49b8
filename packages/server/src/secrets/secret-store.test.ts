import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeTempDir } from '@tandem/testkit';
import { SECRET_KEY_FILE, SECRET_VALUES_FILE, SecretStore } from './secret-store.js';

describe('SecretStore', () => {
  it('keeps values encrypted at rest with a 0600 key file and reads them back in another instance', async () => {
    await using dir = await makeTempDir();
    const store = SecretStore.open(dir.path);
    store.set('mcp/github/env/GITHUB_TOKEN', 'ghp_supersecretvalue123');
    store.set('other', 'second-value');
    expect(statSync(join(dir.path, SECRET_KEY_FILE)).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir.path, SECRET_VALUES_FILE)).mode & 0o777).toBe(0o600);
    const onDisk = readFileSync(join(dir.path, SECRET_VALUES_FILE), 'utf8') + readFileSync(join(dir.path, SECRET_KEY_FILE)).toString('latin1');
    expect(onDisk).not.toContain('ghp_supersecretvalue123');
    expect(onDisk).not.toContain('second-value');

    const again = SecretStore.open(dir.path);
    expect(again.get('mcp/github/env/GITHUB_TOKEN')).toBe('ghp_supersecretvalue123');
    expect(again.names()).toEqual(['mcp/github/env/GITHUB_TOKEN', 'other']);
    expect(again.delete('other')).toBe(true);
    expect(again.delete('other')).toBe(false);
    expect(SecretStore.open(dir.path).get('other')).toBeUndefined();
  });

  it('refuses a value moved to another name or tampered with, and a damaged key file, with a readable error', async () => {
    await using dir = await makeTempDir();
    const store = SecretStore.open(dir.path);
    store.set('a', 'value-a');
    const file = JSON.parse(readFileSync(join(dir.path, SECRET_VALUES_FILE), 'utf8'));
    file.secrets.b = file.secrets.a;
    writeFileSync(join(dir.path, SECRET_VALUES_FILE), JSON.stringify(file));
    const moved = SecretStore.open(dir.path);
    expect(moved.get('a')).toBe('value-a');
    expect(() => moved.get('b')).toThrow(/cannot be decrypted/);
    expect(() => store.set('bad name!', 'x')).toThrow(/invalid secret name/);
    writeFileSync(join(dir.path, SECRET_KEY_FILE), 'short');
    expect(() => SecretStore.open(dir.path)).toThrow(/not a 32-byte key/);
  });
});
