import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readFileTool } from './read-file.js';
import { writeFileTool } from './write-file.js';
import { makeHarness, type Harness } from './tool-harness.test-helper.js';
import { SandboxError } from '@tandem/core';

let h: Harness;
beforeEach(async () => {
  h = await makeHarness();
});
afterEach(async () => {
  await h.cleanup();
});

describe('read_file', () => {
  it('returns the file with numbered lines', async () => {
    await h.write('a.txt', 'alpha\nbeta\ngamma\n');
    const result = await h.run(readFileTool, { path: 'a.txt' });
    expect(result).toEqual({ output: '1\talpha\n2\tbeta\n3\tgamma', isError: false });
  });

  it('returns a line range with its position in the file', async () => {
    await h.write('a.txt', Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join('\n'));
    const result = await h.run(readFileTool, { path: 'a.txt', offset: 4, limit: 2 });
    expect(result.output).toBe('4\tline 4\n5\tline 5\n[lines 4-5 of 10]');
    const past = await h.run(readFileTool, { path: 'a.txt', offset: 11 });
    expect(past.isError).toBe(true);
    expect(past.output).toMatch(/past the end .* 10 lines/);
  });

  it('returns a character range raw', async () => {
    await h.write('a.txt', 'abcdefghij');
    expect((await h.run(readFileTool, { path: 'a.txt', char_offset: 2, char_limit: 3 })).output).toBe('cde\n[characters 2-5 of 10]');
  });

  it('refuses a whole read past 1 MB, pointing at ranges and grep_files, but serves a range', async () => {
    const line = 'x'.repeat(99) + '\n';
    await h.write('big.txt', line.repeat(11_000));
    const whole = await h.run(readFileTool, { path: 'big.txt' });
    expect(whole.isError).toBe(true);
    expect(whole.output).toMatch(/over the 1 MB limit/);
    expect(whole.output).toMatch(/offset\/limit/);
    expect(whole.output).toMatch(/grep_files/);
    const part = await h.run(readFileTool, { path: 'big.txt', offset: 10_999, limit: 5 });
    expect(part.isError).toBe(false);
    expect(part.output).toContain('[lines 10999-11000 of 11000]');
  });

  it('refuses binary files and directories, and says when a file is missing', async () => {
    await h.write('bin.dat', Buffer.from([0x89, 0x50, 0x00, 0x01]));
    expect((await h.run(readFileTool, { path: 'bin.dat' })).output).toMatch(/looks binary/);
    await fs.mkdir(path.join(h.workspace, 'dir'));
    expect((await h.run(readFileTool, { path: 'dir' })).output).toMatch(/is a directory; use list_directory/);
    expect((await h.run(readFileTool, { path: 'nope.txt' })).output).toMatch(/does not exist/);
  });

  it('goes through the sandbox', async () => {
    const result = await h.run(readFileTool, { path: '/etc/passwd' });
    expect(result.isError).toBe(true);
    expect(result.output).toMatch(/system directory/);
  });
});

describe('write_file', () => {
  it('creates a file and its missing parent directories', async () => {
    const result = await h.run(writeFileTool, { path: 'deep/er/new.txt', content: 'hello' });
    expect(result.isError).toBe(false);
    expect(result.output).toMatch(/Created deep\/er\/new.txt/);
    expect(await h.read('deep/er/new.txt')).toBe('hello');
  });

  it('refuses to overwrite a file this session has not read, then overwrites it after a read and keeps a .bak', async () => {
    await h.write('a.txt', 'original');
    const blind = await h.run(writeFileTool, { path: 'a.txt', content: 'new' });
    expect(blind.isError).toBe(true);
    expect(blind.output).toMatch(/you have not read .*a\.txt in this session; read it first/);
    expect(await h.read('a.txt')).toBe('original');

    await h.run(readFileTool, { path: 'a.txt' });
    const result = await h.run(writeFileTool, { path: 'a.txt', content: 'new' });
    expect(result.isError).toBe(false);
    expect(await h.read('a.txt')).toBe('new');
    expect(await h.read('a.txt.bak')).toBe('original');

    // The write updated the baseline: a second overwrite needs no re-read.
    expect((await h.run(writeFileTool, { path: 'a.txt', content: 'newer' })).isError).toBe(false);
    expect(await h.read('a.txt.bak')).toBe('new');
  });

  it('refuses a stale overwrite when the file changed after the read', async () => {
    await h.write('a.txt', 'v1');
    await h.run(readFileTool, { path: 'a.txt' });
    await h.write('a.txt', 'v2 by someone else');
    const result = await h.run(writeFileTool, { path: 'a.txt', content: 'mine' });
    expect(result.output).toMatch(/changed since you read it \(stale\); read it again/);
    expect(await h.read('a.txt')).toBe('v2 by someone else');
  });

  it('keeps the file mode when overwriting', async () => {
    const file = await h.write('run.sh', '#!/bin/sh\n');
    await fs.chmod(file, 0o755);
    await h.run(readFileTool, { path: 'run.sh' });
    await h.run(writeFileTool, { path: 'run.sh', content: '#!/bin/sh\necho hi\n' });
    expect((await fs.stat(file)).mode & 0o777).toBe(0o755);
  });

  it('cannot write outside the workspace, through a symlinked directory, or into the data dir', async () => {
    await fs.symlink(h.outside, path.join(h.workspace, 'out'));
    expect((await h.run(writeFileTool, { path: 'out/x.txt', content: 'x' })).output).toMatch(/outside the workspace/);
    expect((await h.run(writeFileTool, { path: '../outside/x.txt', content: 'x' })).output).toMatch(/climbs out/);
    expect((await h.run(writeFileTool, { path: path.join(h.dataDir, 'x'), content: 'x' })).output).toMatch(/data directory/);
    expect(await fs.readdir(h.outside)).toEqual([]);
  });

  it('does not write through a file swapped for a symlink after the sandbox check', async () => {
    // Same content outside, so the freshness check passes and only the verified open can stop it.
    await h.write('a.txt', 'same');
    await fs.writeFile(path.join(h.outside, 'target.txt'), 'same');
    await h.run(readFileTool, { path: 'a.txt' });
    const swappingResolver = {
      resolve: async (p: string, intent: 'read' | 'write') => {
        const checked = await h.sandbox.resolve(p, intent);
        if (checked.endsWith('a.txt')) {
          await fs.rm(checked, { force: true });
          await fs.symlink(path.join(h.outside, 'target.txt'), checked);
        }
        return checked;
      },
    };
    const result = await h.run(writeFileTool, { path: 'a.txt', content: 'pwned' }, { paths: swappingResolver });
    expect(result.isError).toBe(true);
    expect(result.error).toBeInstanceOf(SandboxError);
    expect((result.error as SandboxError).rule).toBe('symlink_swapped');
    expect(await fs.readFile(path.join(h.outside, 'target.txt'), 'utf8')).toBe('same');
  });
});
