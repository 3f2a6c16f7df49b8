import { describe, expect, it } from 'vitest';
import { commandEnvironment, commandEnvPolicy, withoutTokens } from './command-env.js';

describe('a command environment', () => {
  const policy = commandEnvPolicy({ passEnv: ['NPM_TOKEN', 'GROQ_API_KEY'], tokens: ['the-control-token', 'the-view-token'], keyVariables: ['BRAVE_SEARCH'] });
  const base = {
    PATH: '/usr/bin',
    HOME: '/home/u',
    TANDEM_TOKEN: 'the-control-token',
    TANDEM_VIEW_TOKEN: 'the-view-token',
    SOMETHING: 'x the-control-token y',
    OPENAI_API_KEY: 'sk-1',
    GROQ_API_KEY: 'gsk-2',
    AWS_SECRET_ACCESS_KEY: 'aws',
    db_password: 'pw',
    NPM_TOKEN: 'npm',
    BRAVE_SEARCH: 'brave-key',
    KEYBOARD_LAYOUT: 'us',
  };

  it('leaves out tokens (by name and by value), provider keys and secret-looking names not in passEnv', () => {
    const { env, withheld, neverPassed } = commandEnvironment(base, policy);
    expect(env).toEqual({ PATH: '/usr/bin', HOME: '/home/u', NPM_TOKEN: 'npm' });
    expect(withheld).toEqual(
      [
        'AWS_SECRET_ACCESS_KEY',
        'BRAVE_SEARCH',
        'GROQ_API_KEY',
        'KEYBOARD_LAYOUT',
        'OPENAI_API_KEY',
        'SOMETHING',
        'TANDEM_TOKEN',
        'TANDEM_VIEW_TOKEN',
        'db_password',
      ].sort(),
    );
    // passEnv cannot pass a provider key the server uses, nor Tandem's tokens.
    expect(neverPassed).toEqual(['BRAVE_SEARCH', 'GROQ_API_KEY', 'OPENAI_API_KEY', 'SOMETHING', 'TANDEM_TOKEN', 'TANDEM_VIEW_TOKEN']);
  });

  it('what a command adds on top may not carry the tokens either', () => {
    expect(withoutTokens({ CI: '1', TANDEM_TOKEN: 'x', OTHER: 'the-view-token' }, policy)).toEqual({ CI: '1' });
  });
});
