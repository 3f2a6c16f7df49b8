import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readEnvTool } from './read-env.js';
import { makeHarness, type Harness } from './tool-harness.test-helper.js';

let h: Harness;
beforeEach(async () => {
  h = await makeHarness();
});
afterEach(async () => {
  await h.cleanup();
});

const env = {
  PATH: '/usr/local/bin:/usr/bin',
  OPENAI_API_KEY: 'sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z',
  DB_PASSWORD: 'hunter2',
  INNOCENT_LOOKING: 'ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8',
  LANG: 'en_US.UTF-8',
  GIT_AUTHOR_NAME: 'Ada',
};

describe('read_env', () => {
  it('lists variables sorted, masking secret names and secret-looking values by length only', async () => {
    const result = await h.run(readEnvTool, {}, { services: { env } });
    expect(result.output).toBe(
      [
        'DB_PASSWORD=[masked, 7 chars]',
        'GIT_AUTHOR_NAME=Ada',
        'INNOCENT_LOOKING=[masked, 40 chars]',
        'LANG=en_US.UTF-8',
        'OPENAI_API_KEY=[masked, 40 chars]',
        'PATH=/usr/local/bin:/usr/bin',
      ].join('\n'),
    );
    expect(result.output).not.toContain('hunter2');
    expect(result.output).not.toContain('sk-proj');
  });

  it('filters by name, case-insensitively', async () => {
    expect((await h.run(readEnvTool, { filter: 'path' }, { services: { env } })).output).toBe('PATH=/usr/local/bin:/usr/bin');
    expect((await h.run(readEnvTool, { filter: 'nothing' }, { services: { env } })).output).toBe('No environment variables contain "nothing".');
  });

  it('reads the process environment by default', async () => {
    process.env.TANDEM_READ_ENV_PROBE = 'visible';
    try {
      expect((await h.run(readEnvTool, { filter: 'TANDEM_READ_ENV_PROBE' })).output).toBe('TANDEM_READ_ENV_PROBE=visible');
    } finally {
      delete process.env.TANDEM_READ_ENV_PROBE;
    }
  });
});
