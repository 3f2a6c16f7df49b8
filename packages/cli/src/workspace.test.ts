import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeTempDir } from '@tandem/testkit';
import { unknownCommandMessage } from './unknown-command.js';
import { parseModelSpec, workspaceDir } from './workspace.js';

describe('workspaceDir', () => {
  it('is the current directory, --cwd resolved against it, or INIT_CWD under `pnpm tandem`; symlinks resolved', async () => {
    await using dir = await makeTempDir('tandem-ws-');
    await mkdir(join(dir.path, 'app'));
    await symlink(join(dir.path, 'app'), join(dir.path, 'link'));
    expect(workspaceDir(undefined, {}, join(dir.path, 'app'))).toBe(join(dir.path, 'app'));
    expect(workspaceDir('link', {}, dir.path)).toBe(join(dir.path, 'app'));
    expect(workspaceDir(undefined, { npm_lifecycle_event: 'tandem', INIT_CWD: join(dir.path, 'app') }, '/')).toBe(join(dir.path, 'app'));
    expect(workspaceDir(undefined, { npm_lifecycle_event: 'test', INIT_CWD: join(dir.path, 'app') }, dir.path)).toBe(dir.path);
  });

  it('says what is wrong with a --cwd that is missing or a file', async () => {
    await using dir = await makeTempDir('tandem-ws-');
    await writeFile(join(dir.path, 'file.txt'), 'x');
    expect(() => workspaceDir('nope', {}, dir.path)).toThrow(`--cwd ${join(dir.path, 'nope')} does not exist`);
    expect(() => workspaceDir('file.txt', {}, dir.path)).toThrow('is not a folder');
  });
});

describe('parseModelSpec', () => {
  it('takes provider/model and refuses anything else with an example', () => {
    expect(parseModelSpec(' anthropic/claude-sonnet-4-5 ')).toBe('anthropic/claude-sonnet-4-5');
    expect(parseModelSpec('ollama/qwen2.5-coder:7b')).toBe('ollama/qwen2.5-coder:7b');
    for (const bad of ['gpt-4.1', '/x', 'openai/', 'open ai/x'])
      expect(() => parseModelSpec(bad)).toThrow(/expected provider\/model, e\.g\. openai\/gpt-4\.1-mini/);
  });
});

describe('unknownCommandMessage', () => {
  it('suggests the nearest command when one is close, and always where the list is', () => {
    const commands = ['attach', 'ls', 'rm', 'status', 'stop', 'restart', 'serve'];
    expect(unknownCommandMessage('sttaus', commands)).toBe('unknown command "sttaus" (did you mean `tandem status`?); `tandem help` lists the commands');
    expect(unknownCommandMessage('atach', commands)).toContain('`tandem attach`');
    expect(unknownCommandMessage('frobnicate', commands)).toBe('unknown command "frobnicate"; `tandem help` lists the commands');
  });
});
