import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseCommandFile } from './command-file.js';
import { commandRoots, discoverCustomCommands } from './custom-commands.js';

const base = mkdtempSync(join(tmpdir(), 'tandem-commands-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

function write(path: string, text: string): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
}

describe('custom commands', () => {
  const workspace = join(base, 'ws');
  const dataDir = join(base, 'data');
  const home = join(base, 'home');
  write(
    join(workspace, '.tandem/commands/review.md'),
    '---\ndescription: Review the diff\nargument-hint: "[focus]"\n---\nReview the diff, focusing on $ARGUMENTS.\n',
  );
  write(join(workspace, '.claude/commands/review.md'), 'Claude review\n');
  write(join(workspace, '.claude/commands/fix-issue.md'), '# Fix an issue\n\nFix issue #$1 with priority $2.\n');
  write(join(workspace, '.claude/commands/frontend/component.md'), '---\nallowed-tools: Bash(git:*)\n---\nMake a component $1.\n');
  write(join(dataDir, 'commands/standup.md'), 'Summarise yesterday.\n');
  write(join(dataDir, 'commands/broken.md'), '---\ndescription: [unclosed\n---\nx\n');
  write(join(home, '.claude/commands/empty.md'), '---\ndescription: nothing\n---\n');

  it('reads every root in order, subfolders as SUB:NAME; the first of a name wins', () => {
    const found = discoverCustomCommands(commandRoots({ workspace, dataDir, home }));
    const byName = (name: string) => found.filter((command) => command.name === name);
    expect(byName('review').map((c) => [c.status, c.source, c.description])).toEqual([
      ['ok', 'project', 'Review the diff'],
      ['shadowed', 'project', 'Claude review'],
    ]);
    expect(byName('review')[0]).toMatchObject({ argumentHint: '[focus]', body: 'Review the diff, focusing on $ARGUMENTS.' });
    expect(byName('fix-issue')[0]).toMatchObject({ status: 'ok', description: 'Fix an issue' });
    expect(byName('frontend:component')[0]).toMatchObject({ status: 'ok', description: 'Make a component $1.' });
    expect(byName('standup')[0]).toMatchObject({ status: 'ok', source: 'user' });
    expect(byName('broken')[0]).toMatchObject({ status: 'invalid' });
    expect(byName('broken')[0]?.reason).toContain('not valid YAML');
    expect(byName('empty')[0]).toMatchObject({ status: 'invalid', reason: expect.stringContaining('has no prompt') });
  });

  it('a folder that does not exist has no commands', () => {
    expect(discoverCustomCommands(commandRoots({ workspace: join(base, 'none'), dataDir: join(base, 'none2'), home: join(base, 'none3') }))).toEqual([]);
  });

  it('takes a file without frontmatter whole', () => {
    expect(parseCommandFile('Just do it.\nNow.')).toEqual({ ok: true, command: { description: 'Just do it.', body: 'Just do it.\nNow.' } });
  });
});
