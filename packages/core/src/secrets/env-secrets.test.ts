import { describe, expect, it } from 'vitest';
import { EnvSecrets } from './env-secrets.js';

describe('EnvSecrets', () => {
  it('lists secret-named variables long enough to mask, longest value first', () => {
    const secrets = new EnvSecrets({ A_TOKEN: 'token-value-1', B_KEY: 'key-value-longer-1', C_SECRET: 'abc', HOME: '/home/someone' });
    expect(secrets.current()).toEqual([
      ['B_KEY', 'key-value-longer-1'],
      ['A_TOKEN', 'token-value-1'],
    ]);
  });

  it('reads only the values of secret-named variables, and sees variables added or changed later', () => {
    const read: string[] = [];
    const raw: Record<string, string | undefined> = { HOME: '/home/someone', PATH: '/usr/bin', MY_TOKEN: 'token-value-1' };
    const env = new Proxy(raw, {
      get(target, name) {
        if (typeof name === 'string') read.push(name);
        return target[name as string];
      },
    });
    const secrets = new EnvSecrets(env);
    expect(secrets.current()).toEqual([['MY_TOKEN', 'token-value-1']]);
    raw.NEW_PASSWORD = 'password-value-1';
    raw.MY_TOKEN = 'token-value-2';
    expect(secrets.current()).toEqual([
      ['NEW_PASSWORD', 'password-value-1'],
      ['MY_TOKEN', 'token-value-2'],
    ]);
    delete raw.NEW_PASSWORD;
    expect(secrets.current()).toEqual([['MY_TOKEN', 'token-value-2']]);
    expect(new Set(read)).toEqual(new Set(['MY_TOKEN', 'NEW_PASSWORD']));
  });
});
