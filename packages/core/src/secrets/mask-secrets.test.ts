import { describe, expect, it } from 'vitest';
import { isSecretName, maskSecrets } from './index.js';
import { looksLikeSecretValue } from './mask-secrets.js';

const OPENAI = 'sk-proj-' + 'Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z';
const ANTHROPIC = 'sk-ant-api03-' + 'Zy9xWv8uTs7rQp6oNm5lKj4iHg3fEd2c';
const GITHUB = 'ghp_' + 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8';

describe('isSecretName', () => {
  it.each([
    'OPENAI_API_KEY',
    'GITHUB_TOKEN',
    'AWS_SECRET_ACCESS_KEY',
    'DB_PASSWORD',
    'MYSQL_PASSWD',
    'SESSION_COOKIE',
    'PRIVATE_KEY',
    'GOOGLE_APPLICATION_CREDENTIALS',
    'BASIC_AUTH',
    'apikey',
    'DATABASE_URL',
    'DB_PWD',
  ])('%s is secret', (name) => expect(isSecretName(name)).toBe(true));
  it.each([
    'PATH',
    'HOME',
    'PWD',
    'OLDPWD',
    'LANG',
    'SHELL',
    'GIT_AUTHOR_NAME',
    'TERM',
    'SSH_AUTH_SOCK',
    'NODE_ENV',
    'XDG_SESSION_TYPE',
    'DBUS_SESSION_BUS_ADDRESS',
  ])('%s is not', (name) => expect(isSecretName(name)).toBe(false));
});

describe('maskSecrets', () => {
  it('replaces the literal values of secret-named variables wherever they appear', () => {
    const env = { MY_SERVICE_TOKEN: 'plainvalue123', PATH: '/usr/bin', SHORT_KEY: 'abc' };
    expect(maskSecrets('curl -H "x: plainvalue123" /usr/bin abc', { env })).toBe('curl -H "x: [masked MY_SERVICE_TOKEN]" /usr/bin abc');
  });

  it.each([
    ['openai key', OPENAI],
    ['anthropic key', ANTHROPIC],
    ['github token', GITHUB],
    ['github token', 'github_pat_' + '11ABCDEFG0123456789_abcdefghijklmnopqrstuv'],
    ['gitlab token', 'glpat-' + 'x1Y2z3A4b5C6d7E8f9G0'],
    ['slack token', 'xoxb-' + '123456789012-abcdefghijkl'],
    ['aws access key id', 'AKIA' + 'IOSFODNN7EXAMPLE'],
    ['google api key', 'AIza' + 'SyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q'],
    ['jwt', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U'],
  ])('masks a %s', (kind, token) => {
    const out = maskSecrets(`before ${token} after`);
    expect(out).toBe(`before [masked ${kind}] after`);
  });

  it('masks PEM private key blocks whole', () => {
    const pem = '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\nAAAABG5vbmUAAAAEbm9uZQ\n-----END OPENSSH PRIVATE KEY-----';
    expect(maskSecrets(`key:\n${pem}\ndone`)).toBe('key:\n[masked pem private key]\ndone');
  });

  it('masks long high-entropy runs but leaves git shas, paths and words alone', () => {
    const random = 'q8Zr2Lk9Vx4Nw7Tb1Hy6Pm3Jc5Fd0GsWe';
    expect(maskSecrets(`token=${random}`)).toBe('token=[masked]');
    const sha = 'a94a8fe5ccb19ba61c4c0873d391e987982fbbd3';
    const text = `commit ${sha} in /home/user/projects/some-long-directory-name/file.ts: internationalization`;
    expect(maskSecrets(text)).toBe(text);
  });

  it('leaves a path with a random-looking temporary directory in it alone, but not keys with slashes or keys inside paths', () => {
    // mktemp names (mixed case, digits) made the whole path one high-entropy run.
    const path = '/tmp/ci1-WwSI/packages/server/test/fixtures/mcp-marked-server.mjs';
    expect(maskSecrets(`node ${path}`)).toBe(`node ${path}`);
    expect(maskSecrets('/tmp/tmp.Xq3ZrT9aLk/packages/server/test/fixtures/everything-server.mjs')).toBe(
      '/tmp/tmp.Xq3ZrT9aLk/packages/server/test/fixtures/everything-server.mjs',
    );
    // A base64 key with slashes in it (an AWS secret access key's shape) is still a key.
    expect(maskSecrets('secret=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY')).toBe('secret=[masked]');
    expect(maskSecrets('x q8Zr2Lk9Vx4N/w7Tb1Hy6Pm3/Jc5Fd0GsWe y')).toBe('x [masked] y');
    // A key kept as one part of a path is still a key.
    expect(maskSecrets('/home/ana/keys/q8Zr2Lk9Vx4Nw7Tb1Hy6Pm3Jc5Fd0GsWe/id')).not.toContain('q8Zr2Lk9Vx4Nw7Tb1Hy6Pm3Jc5Fd0GsWe');
    // A webhook URL's secret part keeps the whole run a secret (few lowercase name parts).
    expect(maskSecrets('https://hooks.slack.com/services/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')).not.toContain('q8Zr2Lk9Vx4Nw7Tb1Hy6Pm3J');
  });

  it('masks the password part of a URL and bearer tokens', () => {
    expect(maskSecrets('postgres://app:hunter2pass@db:5432/x')).toBe('postgres://app:[masked url password]@db:5432/x');
    expect(maskSecrets('Authorization: Bearer abcdefghijklmnop1234')).toBe('Authorization: Bearer [masked bearer token]');
  });

  it('never throws on odd input', () => {
    expect(maskSecrets('')).toBe('');
    expect(maskSecrets(undefined as unknown as string)).toBeUndefined();
    expect(maskSecrets('x', { env: { A_TOKEN: undefined } })).toBe('x');
  });

  it('recognizes secret-looking values', () => {
    expect(looksLikeSecretValue(OPENAI)).toBe(true);
    expect(looksLikeSecretValue('/usr/local/bin:/usr/bin')).toBe(false);
    expect(looksLikeSecretValue('en_US.UTF-8')).toBe(false);
  });
});
