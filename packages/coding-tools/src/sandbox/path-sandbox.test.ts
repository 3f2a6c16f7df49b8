import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, type TempDir } from '@tandem/testkit';
import { createPathSandbox, type PathSandbox } from './path-sandbox.js';
import { SandboxError } from '@tandem/core';

let root: TempDir;
let workspace: string;
let home: string;
let dataDir: string;
let outside: string;
let sandbox: PathSandbox;

beforeEach(async () => {
  root = await makeTempDir('tandem-sandbox-');
  workspace = path.join(root.path, 'ws');
  home = path.join(root.path, 'home');
  dataDir = path.join(home, '.tandem');
  outside = path.join(root.path, 'outside');
  for (const dir of [workspace, home, dataDir, outside, path.join(home, '.ssh'), path.join(home, '.aws')]) await fs.mkdir(dir, { recursive: true });
  await fs.writeFile(path.join(home, '.ssh', 'id_ed25519'), 'PRIVATE');
  await fs.writeFile(path.join(outside, 'secret.txt'), 'outside');
  sandbox = createPathSandbox({ workspace, dataDir, home });
});

afterEach(async () => {
  await root.cleanup();
});

async function refusal(p: string, intent: 'read' | 'write' = 'read', box = sandbox): Promise<SandboxError> {
  const error = await box.resolve(p, intent).then(
    (resolved) => {
      throw new Error(`expected ${p} to be refused, got ${resolved}`);
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SandboxError);
  return error as SandboxError;
}

describe('createPathSandbox: paths that stay inside', () => {
  it('resolves relative paths against the workspace, including files not yet created', async () => {
    await fs.mkdir(path.join(workspace, 'src'));
    expect(await sandbox.resolve('src/a.ts', 'read')).toBe(path.join(workspace, 'src/a.ts'));
    expect(await sandbox.resolve('new/dir/file.txt', 'write')).toBe(path.join(workspace, 'new/dir/file.txt'));
    expect(await sandbox.resolve(path.join(workspace, 'x'), 'write')).toBe(path.join(workspace, 'x'));
    expect(await sandbox.resolve('.', 'read')).toBe(workspace);
  });

  it('allows .. that stays inside, and symlinks whose target is inside', async () => {
    await fs.mkdir(path.join(workspace, 'a/b'), { recursive: true });
    await fs.writeFile(path.join(workspace, 'real.txt'), 'x');
    await fs.symlink(path.join(workspace, 'real.txt'), path.join(workspace, 'link.txt'));
    expect(await sandbox.resolve('a/b/../../real.txt', 'read')).toBe(path.join(workspace, 'real.txt'));
    expect(await sandbox.resolve('link.txt', 'write')).toBe(path.join(workspace, 'real.txt'));
  });
});

describe('createPathSandbox: a workspace reached through a symlink', () => {
  it('accepts paths in either spelling and returns the real one', async () => {
    const linked = path.join(root.path, 'ws-link');
    await fs.symlink(workspace, linked);
    const box = createPathSandbox({ workspace: linked, dataDir, home });
    expect(await box.resolve('a.txt', 'write')).toBe(path.join(workspace, 'a.txt'));
    expect(await box.resolve(`${linked}/sub/../a.txt`, 'write')).toBe(path.join(workspace, 'a.txt'));
    expect((await refusal(`${linked}/../outside/secret.txt`, 'read', box)).rule).toBe('parent_escape');
  });
});

describe('createPathSandbox: adversarial paths', () => {
  it('refuses a symlink inside the workspace that points to /etc', async () => {
    await fs.symlink('/etc', path.join(workspace, 'etc-link'));
    await fs.symlink('/etc/passwd', path.join(workspace, 'passwd'));
    expect((await refusal('etc-link/hostname')).rule).toBe('system_directory');
    const error = await refusal('passwd', 'write');
    expect(error.rule).toBe('system_directory');
    expect(error.message).toContain('/etc/passwd');
  });

  it('refuses a path through a symlinked parent directory that leads outside', async () => {
    await fs.symlink(outside, path.join(workspace, 'sub'));
    expect((await refusal('sub/secret.txt')).rule).toBe('outside_workspace');
    // Not-yet-existing files under the linked parent land outside too.
    expect((await refusal('sub/new/deeper.txt', 'write')).rule).toBe('outside_workspace');
  });

  it('refuses a dangling symlink whose target (to be created) is outside', async () => {
    await fs.symlink(path.join(outside, 'not-yet.txt'), path.join(workspace, 'dangling'));
    expect((await refusal('dangling', 'write')).rule).toBe('outside_workspace');
  });

  it('refuses .. chains that climb out, whatever they aim at', async () => {
    expect((await refusal('../outside/secret.txt')).rule).toBe('parent_escape');
    expect((await refusal('a/../../outside')).rule).toBe('parent_escape');
    expect((await refusal('../../../../../../../../etc/passwd')).rule).toBe('parent_escape');
    expect((await refusal(`${workspace}/../outside/x`, 'write')).rule).toBe('parent_escape');
  });

  it('refuses absolute system paths', async () => {
    for (const p of ['/etc/passwd', '/usr/bin/env', '/proc/self/environ', '/sys/kernel', '/dev/sda', '/var/log/syslog', '/root/.bashrc', '/boot', '/bin/sh']) {
      const error = await refusal(p);
      expect(error.rule, p).toBe('system_directory');
    }
  });

  it('refuses absolute paths elsewhere outside the workspace', async () => {
    expect((await refusal(path.join(outside, 'secret.txt'))).rule).toBe('outside_workspace');
    expect((await refusal('/')).rule).toBe('outside_workspace');
  });

  it('refuses credential locations, by ~ and by absolute path', async () => {
    for (const p of ['~/.ssh/id_ed25519', path.join(home, '.ssh'), '~/.aws/credentials', '~/.netrc', '~/.config/gh/hosts.yml', '~/.git-credentials']) {
      const error = await refusal(p);
      expect(error.rule, p).toBe('credential_directory');
    }
  });

  it('refuses the data directory', async () => {
    const error = await refusal(path.join(dataDir, 'tokens.json'), 'write');
    expect(error.rule).toBe('data_directory');
    expect(error.message).toContain(dataDir);
  });

  it('refuses credential and data directories even when they are inside the workspace', async () => {
    const homeAsWorkspace = createPathSandbox({ workspace: home, dataDir, home });
    expect((await refusal('.ssh/id_ed25519', 'read', homeAsWorkspace)).rule).toBe('credential_directory');
    expect((await refusal('.tandem/config.json', 'read', homeAsWorkspace)).rule).toBe('data_directory');
    expect(await homeAsWorkspace.resolve('notes.txt', 'write')).toBe(path.join(home, 'notes.txt'));
  });

  it('refuses a symlink into a credential directory', async () => {
    await fs.symlink(path.join(home, '.ssh'), path.join(workspace, 'keys'));
    expect((await refusal('keys/id_ed25519')).rule).toBe('credential_directory');
  });

  it('refuses unusable input without throwing anything but a SandboxError', async () => {
    expect((await refusal('')).rule).toBe('invalid_path');
    expect((await refusal('a\0b')).rule).toBe('invalid_path');
    expect((await refusal(42 as unknown as string)).rule).toBe('invalid_path');
  });
});

describe('createPathSandbox: granted directories', () => {
  it('allows a granted directory, but not a symlink inside it that leads out', async () => {
    const granted = path.join(root.path, 'shared');
    await fs.mkdir(granted);
    await fs.writeFile(path.join(granted, 'data.csv'), '1,2');
    await fs.symlink(path.join(outside, 'secret.txt'), path.join(granted, 'escape'));
    await fs.symlink('/etc', path.join(granted, 'etc'));
    expect((await refusal(path.join(granted, 'data.csv'))).rule).toBe('outside_workspace');
    expect(await sandbox.grant(granted)).toBe(granted);
    expect(sandbox.granted()).toEqual([granted]);
    expect(await sandbox.resolve(path.join(granted, 'data.csv'), 'write')).toBe(path.join(granted, 'data.csv'));
    expect((await refusal(path.join(granted, 'escape'))).rule).toBe('outside_workspace');
    expect((await refusal(path.join(granted, 'etc/hosts'))).rule).toBe('system_directory');
  });

  it('never grants credential, data or system directories, nor the root', async () => {
    const cases: Array<[string, string]> = [
      [path.join(home, '.ssh'), 'credential_directory'],
      ['~/.aws', 'credential_directory'],
      [dataDir, 'data_directory'],
      ['/etc', 'system_directory'],
      ['/usr/lib', 'system_directory'],
      ['/', 'system_directory'],
    ];
    for (const [dir, rule] of cases) {
      const error = await sandbox.grant(dir).catch((e: unknown) => e);
      expect(error, dir).toBeInstanceOf(SandboxError);
      expect((error as SandboxError).rule, dir).toBe(rule);
      expect((error as SandboxError).message).toMatch(/can ?not grant|cannot grant/);
    }
    expect(sandbox.granted()).toEqual([]);
  });

  it('refuses to grant something missing or a file', async () => {
    expect(((await sandbox.grant(path.join(root.path, 'nope')).catch((e) => e)) as SandboxError).rule).toBe('invalid_path');
    expect(((await sandbox.grant(path.join(outside, 'secret.txt')).catch((e) => e)) as SandboxError).rule).toBe('not_a_directory');
  });

  it('drops invalid initial grants and reports why', async () => {
    const box = createPathSandbox({ workspace, dataDir, home, granted: [outside, path.join(home, '.ssh')] });
    const refused = await box.refusedGrants();
    expect(refused).toHaveLength(1);
    expect(refused[0]!.path).toBe(path.join(home, '.ssh'));
    expect(box.granted()).toEqual([outside]);
  });
});

describe('createPathSandbox: resolveOutsideWorkspace', () => {
  it('allows ordinary outside paths but keeps the system, credential and data-dir rules', async () => {
    expect(await sandbox.resolveOutsideWorkspace(path.join(outside, 'clone'), 'write')).toBe(path.join(outside, 'clone'));
    for (const [p, rule] of [
      ['/etc/clone', 'system_directory'],
      ['~/.ssh/clone', 'credential_directory'],
      [path.join(dataDir, 'clone'), 'data_directory'],
    ] as const) {
      const error = await sandbox.resolveOutsideWorkspace(p, 'write').catch((e: unknown) => e);
      expect((error as SandboxError).rule, p).toBe(rule);
    }
  });
});

describe('protected-path rules on case-insensitive file systems', () => {
  it('fold case when asked, so ~/.SSH and /ETC are still refused there', async () => {
    const { credentialPathOf, systemDirectoryOf } = await import('./protected-paths.js');
    expect(credentialPathOf('/Users/me/.SSH/id_rsa', '/Users/me', true)).toBe('/Users/me/.ssh');
    expect(systemDirectoryOf('/ETC/hosts', true)).toBe('/etc');
    expect(credentialPathOf('/home/me/.SSH/id_rsa', '/home/me', false)).toBeUndefined();
  });
});
