import { describe, expect, it } from 'vitest';
import { maskSecrets } from '@tandem/core';
import { createAuditMasker } from './audit-masker.js';

describe('createAuditMasker', () => {
  it('masks a secret-named variable set after the masker was made and used, and a changed value', () => {
    const env: Record<string, string | undefined> = { HOME: '/home/u', PATH: '/usr/bin' };
    const masker = createAuditMasker(env);
    expect(masker.text('nothing secret here')).toBe('nothing secret here');
    env.DEPLOY_TOKEN = 'plain-words-4711-pony';
    expect(masker.text('curl -H "X: plain-words-4711-pony"')).toBe('curl -H "X: [masked DEPLOY_TOKEN]"');
    env.DEPLOY_TOKEN = 'other-words-0815-horse';
    const { args, summary } = masker.entry({ cmd: 'echo other-words-0815-horse', list: ['other-words-0815-horse'] }, 'printed other-words-0815-horse');
    expect(JSON.stringify(args)).not.toContain('other-words-0815-horse');
    expect(args).toEqual({ cmd: 'echo [masked DEPLOY_TOKEN]', list: ['[masked DEPLOY_TOKEN]'] });
    expect(summary).toBe('printed [masked DEPLOY_TOKEN]');
  });

  it('masks exactly as maskSecrets against the whole environment does', () => {
    const env = {
      API_KEY: 'short-key-value-1',
      API_KEY_LONG: 'short-key-value-1-and-more',
      DB_PASSWORD: 'hunter22',
      GIT_AUTHOR_NAME: 'Some Body',
      PWD: '/work/place',
      TINY_SECRET: 'abc',
    };
    const masker = createAuditMasker(env);
    const texts = [
      'key short-key-value-1-and-more then short-key-value-1',
      'pw hunter22 by Some Body in /work/place, tiny abc',
      'gh ghp_abcdefghijklmnopqrstuvwxyz0123456789 and sk-ant-abcdefghijklmnopqrstuv',
      'nothing at all',
    ];
    for (const text of texts) expect(masker.text(text)).toBe(maskSecrets(text, { env }));
    expect(masker.args({ a: texts[0], b: [texts[1], { c: texts[2] }] })).toEqual({
      a: maskSecrets(texts[0]!, { env }),
      b: [maskSecrets(texts[1]!, { env }), { c: maskSecrets(texts[2]!, { env }) }],
    });
  });
});
