import { describe, expect, it } from 'vitest';
import { commandLevel, hidesCommands, leadingWordChoices, segmentLevel, startsWithWords, writesFile } from './command-level.js';

describe('segmentLevel', () => {
  it.each([
    ['ls -la', 'medium'],
    ['cat README.md', 'medium'],
    ['git status', 'medium'],
    ['git log --oneline -5', 'medium'],
    ['grep -rn foo src', 'medium'],
    ['pwd', 'medium'],
    ['find . -name "*.ts"', 'medium'],
    ['git branch', 'medium'],
    ['git branch -a', 'medium'],
    ['ls 2>&1', 'medium'],
    ['ls > /dev/null', 'medium'],
  ])('%s is read-only (medium)', (segment, level) => {
    expect(segmentLevel(segment)).toBe(level);
  });

  it.each([
    'rm -rf tmp',
    'npm install',
    'git push',
    'git branch -D old',
    'find . -delete',
    "find . '-exec' rm {} ;",
    'echo hi > notes.txt',
    'ls &> out.txt',
    'cat $(echo secret)',
    'echo `whoami`',
    'FOO=1 ls',
    'gitx status',
    '',
  ])('%s is dangerous', (segment) => {
    expect(segmentLevel(segment)).toBe('dangerous');
  });
});

describe('commandLevel', () => {
  it('takes the most dangerous segment and never goes below medium', () => {
    expect(commandLevel(['git status', 'ls'])).toBe('medium');
    expect(commandLevel(['git status', 'rm -rf tmp'])).toBe('dangerous');
    expect(commandLevel([])).toBe('dangerous');
  });
});

describe('hidden commands and writes', () => {
  it('sees substitutions but not quoted look-alikes', () => {
    expect(hidesCommands('git log $(rm -rf x)')).toBe(true);
    expect(hidesCommands('echo "$(id)"')).toBe(true);
    expect(hidesCommands("echo '$(id)'")).toBe(false);
  });

  it('sees a redirect to a file, not to a descriptor', () => {
    expect(writesFile('echo x > 1')).toBe(true);
    expect(writesFile('echo x >& out')).toBe(true);
    expect(writesFile('echo x 2>&1')).toBe(false);
    expect(writesFile('echo "a > b"')).toBe(false);
  });
});

describe('prefixes', () => {
  it('offers the command with a subcommand, then the command alone', () => {
    expect(leadingWordChoices('git status -s')).toEqual(['git status', 'git']);
    expect(leadingWordChoices('npm run build')).toEqual(['npm run', 'npm']);
    expect(leadingWordChoices('ls -la')).toEqual(['ls']);
    expect(leadingWordChoices('cat ./a.txt')).toEqual(['cat']);
    expect(leadingWordChoices('FOO=1 make')).toEqual([]);
    expect(leadingWordChoices('git log $(rm x)')).toEqual([]);
  });

  it('matches whole words only', () => {
    expect(startsWithWords('git log', 'git')).toBe(true);
    expect(startsWithWords('git', 'git')).toBe(true);
    expect(startsWithWords('gitx status', 'git')).toBe(false);
    expect(startsWithWords('"git" log', 'git')).toBe(false);
    expect(startsWithWords('git statusx', 'git status')).toBe(false);
    expect(startsWithWords('git', 'git status')).toBe(false);
  });
});
