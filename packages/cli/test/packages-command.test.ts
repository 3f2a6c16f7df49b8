import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliRepo, makeRepo, makeTempDir, skillFile } from '@tandem/testkit';
import { describe, expect, it } from 'vitest';
import { runTandem } from './cli-runner.js';

describe('tandem packages', () => {
  it('add, ls, update and rm a package from a local repository; a refused one says why and exits 1', async () => {
    await using dir = await makeTempDir('tandem-packages-cli-');
    const dataDir = join(dir.path, 'data');
    const env = { ...process.env, TANDEM_DATA_DIR: dataDir };
    makeRepo(join(dir.path, 'kit'), {
      'skills/tidy/SKILL.md': skillFile('tidy', 'Tidies things.', 'Be tidy.'),
      'bin/kit-run': { text: '#!/bin/sh\necho kit $*\n', executable: true },
      'requirements.txt': 'requests\n',
    });
    const added = await runTandem(['packages', 'add', join(dir.path, 'kit')], env);
    expect(added.stderr).toBe('');
    expect(added.code).toBe(0);
    expect(added.stdout).toMatch(/^added package "kit" \(both\) at [0-9a-f]{12} from /);
    expect(added.stdout).toContain('skills: skills/tidy');
    expect(added.stdout).toContain(`commands: kit-run (shims in ${join(dataDir, 'bin')}`);
    expect(added.stdout).toContain(
      'dependencies: `python3 -m venv .venv && .venv/bin/pip install -r requirements.txt` runs in the sandbox after a driver approves it',
    );

    const ls = await runTandem(['packages', 'ls'], env);
    expect(ls.code).toBe(0);
    expect(ls.stdout.split('\n')[0]).toMatch(/^NAME\s+KIND\s+COMMIT\s+COMMANDS\s+SKILLS\s+DEPENDENCIES\s+SOURCE$/);
    expect(ls.stdout).toMatch(/^kit\s+both\s+[0-9a-f]{12}\s+kit-run\s+1\s+pending\s+/m);
    const json = JSON.parse((await runTandem(['packages', 'ls', '--json'], env)).stdout);
    expect(json).toEqual([expect.objectContaining({ name: 'kit', kind: 'both', status: 'ok', dir: join(dataDir, 'packages', 'kit') })]);

    const update = await runTandem(['packages', 'update', 'kit'], env);
    expect(update.code).toBe(0);
    expect(update.stdout).toMatch(/^already up to date: package "kit"/);

    makeRepo(join(dir.path, 'linked'), { 'bin/x': { text: '#!/bin/sh\n', executable: true }, 'bin/y': { symlinkTo: 'x' } });
    const refused = await runTandem(['packages', 'add', join(dir.path, 'linked')], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^tandem: .*holds symbolic links \(bin\/y\).*nothing was added\n$/);
    const bad = await runTandem(['packages', 'add', 'http://example.com/x.git'], env);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('the http:// protocol is not on the allow-list');

    const removed = await runTandem(['packages', 'rm', 'kit'], env);
    expect(removed.code).toBe(0);
    expect(removed.stdout).toContain('removed package "kit"');
    expect(existsSync(join(dataDir, 'bin', 'kit-run'))).toBe(false);
    expect((await runTandem(['packages', 'ls'], env)).stdout).toMatch(/^no packages: add one with `tandem packages add SOURCE`/);
    expect(JSON.parse(readFileSync(join(dataDir, 'packages.json'), 'utf8'))).toEqual({ version: 1, packages: {} });
    // A CLI-shaped one from a path relative to here.
    cliRepo(join(dir.path, 'greeter'), 'greet', 'hi');
    expect((await runTandem(['packages', 'add', join(dir.path, 'greeter'), '--name', 'hello-tools'], env)).stdout).toContain('package "hello-tools" (cli)');
  }, 180_000);
});

describe('tandem agents external', () => {
  it('offers the agent CLIs found on PATH and writes a default definition only when asked', async () => {
    await using dir = await makeTempDir('tandem-agents-ext-');
    const bin = join(dir.path, 'bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'codex'), '#!/bin/sh\necho codex\n');
    chmodSync(join(bin, 'codex'), 0o755);
    // Not executable: not offered.
    writeFileSync(join(bin, 'claude'), '#!/bin/sh\n');
    const dataDir = join(dir.path, 'data');
    const env = { ...process.env, TANDEM_DATA_DIR: dataDir, PATH: `${bin}:${process.env.PATH}` };
    const listed = await runTandem(['agents', 'external'], env);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(new RegExp(`^codex\\s+${join(bin, 'codex')}\\s+codex exec `, 'm'));
    expect(listed.stdout).toContain('nothing is defined until you do');
    expect(listed.stdout).not.toContain(join(bin, 'claude'));
    expect(existsSync(join(dataDir, 'agents'))).toBe(false);

    const added = await runTandem(['agents', 'external', 'add', 'codex'], env);
    expect(added.code).toBe(0);
    const file = join(dataDir, 'agents', 'codex.md');
    expect(added.stdout).toContain(`wrote ${file}`);
    const agents = JSON.parse((await runTandem(['agents', '--json', '--cwd', dir.path], env)).stdout);
    expect(agents).toEqual([expect.objectContaining({ name: 'codex', status: 'ok', command: expect.stringMatching(/^codex exec .*\{task\}$/) })]);
    writeFileSync(file, readFileSync(file, 'utf8').replace('codex exec', 'codex exec --model mine'));
    const again = await runTandem(['agents', 'external', 'add', 'codex'], env);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('already exists');
    expect(readFileSync(file, 'utf8')).toContain('codex exec --model mine');
    const unknown = await runTandem(['agents', 'external', 'add', 'aider'], env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no known agent CLI named "aider"');
  }, 120_000);
});
