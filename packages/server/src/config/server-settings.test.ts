import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, type TempDir } from '@tandem/testkit';
import { loadServerSettings, parseServerSettings } from './server-settings.js';

let dir: TempDir;
beforeEach(async () => {
  dir = await makeTempDir('tandem-settings-');
});
afterEach(async () => {
  await dir.cleanup();
});

describe('server settings from config.json', () => {
  it('takes every valid limit and ignores the providers part', () => {
    const limits = {
      permissionTimeoutMs: 30_000,
      toolCallsPerMinute: 10,
      identicalCallCooldownMs: 0,
      maxIterations: 12,
      toolTimeoutMs: 90_000,
      commandTimeoutMs: 20_000,
      maxCommandTimeoutMs: 300_000,
      commandEnv: { NODE_ENV: 'development' },
      agents: { concurrency: 2, timeLimitMs: 600_000 },
    };
    const { settings, warnings } = parseServerSettings({ providers: { openai: { apiKeys: ['k'] } }, ...limits });
    expect(warnings).toEqual([]);
    expect(settings).toEqual(limits);
  });

  it('refuses an agents concurrency of 0 or above 32, naming the field', () => {
    for (const concurrency of [0, 33]) {
      const { settings, warnings } = parseServerSettings({ agents: { concurrency } });
      expect(settings).toEqual({});
      expect(warnings[0]).toContain('agents.concurrency');
    }
  });

  it('drops a bad value with a message naming the field, and keeps the good ones', () => {
    const { settings, warnings } = parseServerSettings({
      permissionTimeoutMs: '60s',
      toolCallsPerMinute: 0,
      maxIterations: 5,
      commandEnv: { 'BAD NAME': 'x' },
    });
    expect(settings).toEqual({ maxIterations: 5 });
    expect(warnings).toHaveLength(3);
    expect(warnings[0]).toMatch(/^config\.json: permissionTimeoutMs: .*\(got "60s"\); the default applies/);
    expect(warnings[1]).toContain('toolCallsPerMinute');
    expect(warnings[2]).toContain('commandEnv.BAD NAME');
  });

  it('reads nothing from a missing file and says so for broken JSON or a non-object', async () => {
    expect(loadServerSettings(dir.path)).toEqual({ settings: {}, warnings: [] });
    await writeFile(join(dir.path, 'config.json'), '{ "permissionTimeoutMs": ');
    const broken = loadServerSettings(dir.path);
    expect(broken.settings).toEqual({});
    expect(broken.warnings[0]).toContain('is not valid JSON');
    await writeFile(join(dir.path, 'config.json'), '[1, 2]');
    expect(loadServerSettings(dir.path).warnings[0]).toContain('must hold a JSON object');
  });
});
