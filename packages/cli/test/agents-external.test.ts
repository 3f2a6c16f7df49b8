import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeTempDir } from '@tandem/testkit';
import { describe, expect, it } from 'vitest';
import { runTandem } from './cli-runner.js';

/** `tandem agents external`: the agent CLIs on PATH are offered, and defined only when asked. */
describe('tandem agents external', () => {
  it('lists the known agent CLIs found on PATH, writes a definition only on add, never over an existing one', async () => {
    await using dir = await makeTempDir('tandem-agents-external-');
    const bin = join(dir.path, 'bin');
    mkdirSync(bin);
    for (const program of ['claude', 'gemini']) {
      writeFileSync(join(bin, program), '#!/bin/sh\necho fake\n');
      chmodSync(join(bin, program), 0o755);
    }
    // Not executable: not offered.
    writeFileSync(join(bin, 'codex'), '#!/bin/sh\n');
    const dataDir = join(dir.path, 'data');
    const env = { ...process.env, TANDEM_DATA_DIR: dataDir, PATH: `${bin}:${process.env.PATH ?? ''}`, HOME: dir.path };

    const listed = await runTandem(['agents', 'external', '--json'], env);
    expect(listed.code).toBe(0);
    const found = JSON.parse(listed.stdout) as Array<{ name: string; path: string; command: string }>;
    expect(found.map((c) => c.name)).toEqual(['claude', 'gemini']);
    expect(found[0]).toMatchObject({ path: join(bin, 'claude'), command: expect.stringContaining('claude -p {task}') });
    expect(found[0]!.command).toContain('"args":["bridge"]');
    const table = await runTandem(['agents', 'external'], env);
    expect(table.stdout).toMatch(/^NAME\s+FOUND\s+COMMAND$/m);
    expect(table.stdout).toContain('nothing is defined until you do');

    // Listing defined nothing.
    const before = await runTandem(['agents', '--json', '--cwd', dir.path], env);
    expect(JSON.parse(before.stdout)).toEqual([]);

    const added = await runTandem(['agents', 'external', 'add', 'gemini'], env);
    expect(added.code).toBe(0);
    const file = join(dataDir, 'agents', 'gemini.md');
    expect(added.stdout).toContain(`wrote ${file}`);
    expect(readFileSync(file, 'utf8')).toContain('command: "gemini -p {task}"');
    const agents = await runTandem(['agents', '--cwd', dir.path], env);
    expect(agents.stdout).toMatch(/^gemini\s+ok\s+external\s/m);

    writeFileSync(file, readFileSync(file, 'utf8').replace('gemini -p {task}', 'gemini -m my-model -p {task}'));
    const again = await runTandem(['agents', 'external', 'add', 'gemini'], env);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('already exists');
    expect(readFileSync(file, 'utf8')).toContain('gemini -m my-model -p {task}');

    const unknown = await runTandem(['agents', 'external', 'add', 'aider'], env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no known agent CLI named "aider"');
  });
});
