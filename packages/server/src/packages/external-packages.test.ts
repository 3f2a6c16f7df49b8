import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cliRepo, commitFiles, makeRepo, makeTempDir, skillFile, skillRepo, type TempDir } from '@tandem/testkit';
import { ExternalPackages } from './external-packages.js';
import { parsePackageSource } from './package-source.js';

/** External packages over fixture repositories the tests make with git (ARCHITECTURE "External packages"). */
let tmp: TempDir;
let dataDir: string;
let packages: ExternalPackages;

beforeEach(async () => {
  tmp = await makeTempDir('tandem-pkg-');
  dataDir = path.join(tmp.path, 'data');
  packages = new ExternalPackages(dataDir);
});
afterEach(async () => {
  await tmp.cleanup();
});

const repo = (name: string) => path.join(tmp.path, 'repos', name);
const shim = (name: string) => path.join(dataDir, 'bin', name);
/** Everything under the packages folder: staging leftovers would show here. */
const packagesFolder = () => (existsSync(path.join(dataDir, 'packages')) ? readdirSync(path.join(dataDir, 'packages')) : []);

describe('tandem packages add', () => {
  it('clones a skill-shaped repository verbatim and records it outside the package folder', async () => {
    const commit = skillRepo(repo('writing-skills'), { 'plain-words': { description: 'Rewrites text in plain words.', body: 'Use short words.' } });
    const { entry, shims } = await packages.add({ source: repo('writing-skills'), cwd: tmp.path });
    expect(entry).toMatchObject({ name: 'writing-skills', kind: 'skill', commit, skills: ['skills/plain-words'], bins: [] });
    expect(shims).toEqual([]);
    const dir = path.join(dataDir, 'packages', 'writing-skills');
    expect(readFileSync(path.join(dir, 'skills/plain-words/SKILL.md'), 'utf8')).toContain('Use short words.');
    // Metadata lives in packages.json, never in the package: its checkout is exactly the repository's.
    expect(execFileSync('git', ['status', '--porcelain'], { cwd: dir, encoding: 'utf8' })).toBe('');
    const registry = JSON.parse(readFileSync(path.join(dataDir, 'packages.json'), 'utf8'));
    expect(registry.packages['writing-skills']).toMatchObject({ source: repo('writing-skills'), kind: 'skill' });
  });

  it('shims a CLI-shaped repository’s executables in <data-dir>/bin; the shim runs them with their arguments', async () => {
    cliRepo(repo('greeter'), 'greet', 'hello from greet');
    const { entry, shims } = await packages.add({ source: repo('greeter'), cwd: tmp.path });
    expect(entry).toMatchObject({ kind: 'cli', bins: [{ name: 'greet', path: 'bin/greet' }] });
    expect(shims).toEqual(['greet']);
    expect(execFileSync(shim('greet'), ['a', "b'c"], { encoding: 'utf8' })).toBe("hello from greet a b'c\n");
  });

  it('recognises a repository that is both, with package.json bins and a root SKILL.md, and declares its npm install', async () => {
    makeRepo(repo('both-kinds'), {
      'SKILL.md': skillFile('both-kinds', 'Does both.', 'Run both-cli.'),
      'package.json': JSON.stringify({ name: '@acme/both-kinds', bin: { 'both-cli': 'cli.js' }, dependencies: { leftpad: '1.0.0' } }),
      'cli.js': 'console.log("js cli", process.argv.slice(2).join(" "));\n',
    });
    const { entry } = await packages.add({ source: repo('both-kinds'), cwd: tmp.path });
    expect(entry).toMatchObject({ kind: 'both', skills: ['.'], bins: [{ name: 'both-cli', path: 'cli.js', runner: 'node' }] });
    expect(entry.install).toMatchObject({ command: 'npm install --omit=dev --no-audit --no-fund', manifests: ['package.json'], status: 'pending' });
    expect(execFileSync(shim('both-cli'), ['x'], { encoding: 'utf8' })).toBe('js cli x\n');
  });

  it('refuses a repository holding a symbolic link and leaves nothing behind', async () => {
    makeRepo(repo('sneaky'), {
      'skills/peek/SKILL.md': skillFile('peek', 'Peeks.', 'Read the link.'),
      'skills/peek/creds': { symlinkTo: '/root/.ssh/id_rsa' },
    });
    await expect(packages.add({ source: repo('sneaky'), cwd: tmp.path })).rejects.toThrow(/symbolic links \(skills\/peek\/creds\).*refused.*nothing was added/);
    expect(packagesFolder()).toEqual([]);
    expect(packages.list()).toEqual([]);
    expect(existsSync(path.join(dataDir, 'packages.json'))).toBe(false);
  });

  it('never reads a hostile repository name as an option: `-rf` and `--upload-pack=…` are paths, the names are made safe', async () => {
    cliRepo(repo('-rf'), 'dash-tool', 'dash');
    cliRepo(repo('--upload-pack=touch PWNED'), 'other-tool', 'other');
    const first = await packages.add({ source: '-rf', cwd: path.dirname(repo('-rf')) });
    expect(first.entry.name).toBe('rf');
    // Given as typed, relative: a git that read it as an option would run `touch PWNED`.
    const second = await packages.add({ source: '--upload-pack=touch PWNED', cwd: path.dirname(repo('-rf')), name: 'other' });
    expect(second.entry.name).toBe('other');
    for (const dir of [tmp.path, path.dirname(repo('-rf')), process.cwd(), path.join(dataDir, 'packages')])
      expect(existsSync(path.join(dir, 'PWNED'))).toBe(false);
    expect(execFileSync(shim('dash-tool'), [], { encoding: 'utf8' })).toBe('dash \n');
    expect(execFileSync(shim('other-tool'), [], { encoding: 'utf8' })).toBe('other \n');
    await expect(packages.add({ source: repo('-rf'), cwd: tmp.path, name: '-rf' })).rejects.toThrow(/package name "-rf" is not valid/);
  });

  it('accepts only the allow-listed source protocols', () => {
    for (const bad of [
      'http://example.com/x.git',
      'file:///tmp/x',
      'ext::sh -c touch% /tmp/pwned',
      'git://example.com/x',
      'git@-oProxyCommand=x:repo',
      'ftp://h/x',
    ]) {
      expect(() => parsePackageSource(bad, tmp.path), bad).toThrow(/refused/);
    }
    expect(parsePackageSource('https://github.com/acme/skills.git', tmp.path)).toMatchObject({ kind: 'https' });
    expect(parsePackageSource('ssh://git@github.com/acme/skills.git', tmp.path)).toMatchObject({ kind: 'ssh' });
    expect(parsePackageSource('git@github.com:acme/skills.git', tmp.path)).toMatchObject({ kind: 'scp' });
    expect(() => parsePackageSource('./does-not-exist', tmp.path)).toThrow(/is not a directory/);
  });

  it('refuses a repository with neither skills nor executables, and a second package of the same name', async () => {
    makeRepo(repo('docs-only'), { 'README.md': 'just docs\n' });
    await expect(packages.add({ source: repo('docs-only'), cwd: tmp.path })).rejects.toThrow(/neither skill-shaped.*nor CLI-shaped/);
    expect(packagesFolder()).toEqual([]);
    cliRepo(repo('greeter'), 'greet', 'hi');
    await packages.add({ source: repo('greeter'), cwd: tmp.path });
    await expect(packages.add({ source: repo('greeter'), cwd: tmp.path })).rejects.toThrow(/already added.*tandem packages update greeter/);
  });
});

describe('tandem packages update and rm', () => {
  it('update pulls the new head and scans again: new bins get shims, gone ones lose theirs; a changed manifest asks for the install again', async () => {
    cliRepo(repo('tools'), 'one', 'first');
    const added = await packages.add({ source: repo('tools'), cwd: tmp.path });
    const next = commitFiles(
      repo('tools'),
      { 'bin/two': { text: '#!/bin/sh\necho two\n', executable: true }, 'requirements.txt': 'requests==2.0\n' },
      'second',
    );
    execFileSync('git', ['rm', '--quiet', 'bin/one'], { cwd: repo('tools') });
    const last = commitFiles(repo('tools'), {}, 'drop one');
    const updated = await packages.update('tools');
    expect(updated.previousCommit).toBe(added.entry.commit);
    expect(updated.entry.commit).toBe(last);
    expect(next).not.toBe(last);
    expect(updated.entry.bins.map((b) => b.name)).toEqual(['two']);
    expect(existsSync(shim('one'))).toBe(false);
    expect(execFileSync(shim('two'), { encoding: 'utf8' })).toBe('two\n');
    expect(updated.entry.install).toMatchObject({ status: 'pending', manifests: ['requirements.txt'] });
  });

  it('update refuses a new head with a symbolic link and keeps the package as it was', async () => {
    cliRepo(repo('tools'), 'one', 'first');
    const added = await packages.add({ source: repo('tools'), cwd: tmp.path });
    commitFiles(repo('tools'), { 'bin/evil': { symlinkTo: '/etc/shadow' } }, 'link');
    await expect(packages.update('tools')).rejects.toThrow(/symbolic links \(bin\/evil\).*stays at its current commit/);
    expect(packages.list()[0]).toMatchObject({ commit: added.entry.commit, status: 'ok' });
    expect(existsSync(path.join(dataDir, 'packages', 'tools', 'bin', 'evil'))).toBe(false);
  });

  it('rm removes the folder, the shims and the entry', async () => {
    cliRepo(repo('greeter'), 'greet', 'hi');
    await packages.add({ source: repo('greeter'), cwd: tmp.path });
    const removed = packages.remove('greeter');
    expect(removed.shims).toEqual(['greet']);
    expect(existsSync(shim('greet'))).toBe(false);
    expect(packagesFolder()).toEqual([]);
    expect(packages.list()).toEqual([]);
    expect(() => packages.remove('greeter')).toThrow(/no package named "greeter"/);
  });
});
