import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeTempDir } from '@tandem/testkit';
import { describe, expect, it } from 'vitest';
import { runTandem } from './cli-runner.js';

const agentFile = (name: string, fields: string) => `---\nname: ${name}\n${fields}---\nYou are ${name}.\n`;

describe('tandem agents', () => {
  it('lists project and user definitions with model, tools, interactive and file; an invalid file is named with its field on stderr and exit 1', async () => {
    await using dir = await makeTempDir('tandem-agents-cli-');
    const workspace = join(dir.path, 'ws');
    const dataDir = join(dir.path, 'data');
    const project = join(workspace, '.tandem', 'agents');
    const user = join(dataDir, 'agents');
    await mkdir(project, { recursive: true });
    await mkdir(user, { recursive: true });
    await writeFile(
      join(project, 'reviewer.md'),
      agentFile('reviewer', 'description: Reviews diffs\nmodel: anthropic/claude-sonnet-4-5\ntools: [read_file, grep_files]\n'),
    );
    await writeFile(join(user, 'pair.md'), agentFile('pair', 'description: Pairs with you\ninteractive: true\n'));
    await writeFile(join(user, 'reviewer.md'), agentFile('reviewer', 'description: the user one\n'));

    const listed = await runTandem(['agents', '--cwd', workspace, '--data-dir', dataDir]);
    expect(listed.stderr).toBe('');
    expect(listed.code).toBe(0);
    const [header, ...rows] = listed.stdout.trimEnd().split('\n');
    expect(header).toMatch(/^NAME\s+STATUS\s+MODEL\s+TOOLS\s+INTERACTIVE\s+FILE\s+DESCRIPTION$/);
    expect(rows).toEqual([
      expect.stringMatching(
        new RegExp(`^reviewer\\s+ok\\s+anthropic/claude-sonnet-4-5\\s+read_file,grep_files\\s+no\\s+${join(project, 'reviewer.md')}\\s+Reviews diffs$`),
      ),
      expect.stringMatching(new RegExp(`^pair\\s+ok\\s+session\\s+all\\s+yes\\s+${join(user, 'pair.md')}\\s+Pairs with you$`)),
      expect.stringMatching(/^reviewer\s+shadowed\s+.*shadowed: the project definition .*reviewer\.md of the same name comes first$/),
    ]);

    const json = await runTandem(['agents', '--json', '--cwd', workspace, '--data-dir', dataDir]);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual([
      expect.objectContaining({ name: 'reviewer', status: 'ok', scope: 'project', tools: ['read_file', 'grep_files'], interactive: false }),
      expect.objectContaining({ name: 'pair', status: 'ok', scope: 'user', interactive: true, file: join(user, 'pair.md') }),
      expect.objectContaining({ name: 'reviewer', status: 'shadowed', scope: 'user' }),
    ]);

    const bad = join(project, 'broken.md');
    await writeFile(bad, agentFile('broken', 'description: d\ninteractive: sometimes\n'));
    const withInvalid = await runTandem(['agents', '--cwd', workspace, '--data-dir', dataDir]);
    expect(withInvalid.code).toBe(1);
    expect(withInvalid.stderr).toBe(`tandem: invalid agent file ${bad}: field \`interactive\`: must be true or false\n`);
    expect(withInvalid.stdout).toMatch(/^broken\s+invalid\s+-\s+-\s+-\s+.*invalid: field `interactive`: must be true or false$/m);
  }, 120_000);

  it('says how to add one when there are none', async () => {
    await using dir = await makeTempDir('tandem-agents-cli-');
    const result = await runTandem(['agents', '--cwd', dir.path, '--data-dir', join(dir.path, 'data')]);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toMatch(/^no agents: add a file NAME\.md/);
  }, 120_000);
});
