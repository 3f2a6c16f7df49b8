import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeTempDir } from '@tandem/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveConnection } from './connection-args.js';

describe('resolveConnection', () => {
  const saved = { control: process.env.TANDEM_TOKEN, view: process.env.TANDEM_VIEW_TOKEN };
  beforeEach(() => {
    delete process.env.TANDEM_TOKEN;
    delete process.env.TANDEM_VIEW_TOKEN;
  });
  afterEach(() => {
    if (saved.control !== undefined) process.env.TANDEM_TOKEN = saved.control;
    if (saved.view !== undefined) process.env.TANDEM_VIEW_TOKEN = saved.view;
  });

  it('takes the flags first', async () => {
    await using dir = await makeTempDir();
    await expect(resolveConnection({ url: 'http://h:1', token: 't', dataDir: dir.path })).resolves.toEqual({ url: 'http://h:1', token: 't' });
  });

  it('reads the token files, the view token for a viewer', async () => {
    await using dir = await makeTempDir();
    await writeFile(join(dir.path, 'token'), 'control-token\n');
    await expect(resolveConnection({ url: 'http://h:1', dataDir: dir.path })).resolves.toMatchObject({ token: 'control-token' });
    await expect(resolveConnection({ url: 'http://h:1', dataDir: dir.path, viewer: true })).resolves.toMatchObject({ token: 'control-token' });
    await writeFile(join(dir.path, 'view-token'), 'view-token\n');
    await expect(resolveConnection({ url: 'http://h:1', dataDir: dir.path, viewer: true })).resolves.toMatchObject({ token: 'view-token' });
    process.env.TANDEM_TOKEN = 'from-env';
    await expect(resolveConnection({ url: 'http://h:1', dataDir: dir.path })).resolves.toMatchObject({ token: 'from-env' });
  });

  it('says what to pass when it cannot tell', async () => {
    await using dir = await makeTempDir();
    await expect(resolveConnection({ dataDir: dir.path })).rejects.toThrow(/no local tandem server is running .*pass --url/);
    await expect(resolveConnection({ url: 'http://h:1', dataDir: dir.path })).rejects.toThrow(/no token: pass --token/);
  });
});
