import { describe, expect, it } from 'vitest';
import { segmentLevel } from './command-level.js';
import { readOnlyCommand } from './read-only-commands.js';
import { DEFAULT_READ_ONLY_COMMANDS, READING_GIT_SUBCOMMANDS, READING_PROGRAMS } from './reading-programs.js';

describe('the one list of reading commands', () => {
  it('rates medium exactly the programs it lists, and the listed git subcommands', () => {
    expect([...READING_PROGRAMS].sort()).toEqual(
      'basename cat cd cmp cut date df diff dirname du echo egrep false fgrep file grep head hostname id ls printenv printf pwd readlink realpath rg sort stat tail test tree true type uname uniq wc whereis which whoami'
        .split(' ')
        .sort(),
    );
    expect([...READING_GIT_SUBCOMMANDS].sort()).toEqual(['blame', 'describe', 'diff', 'log', 'ls-files', 'rev-parse', 'shortlog', 'show', 'status']);
    for (const program of READING_PROGRAMS) expect(segmentLevel(`${program} x`), program).toBe('medium');
    expect(segmentLevel('curl x')).toBe('dangerous');
  });

  it('every entry of the default list runs without asking, and is rated no worse than medium', () => {
    for (const entry of DEFAULT_READ_ONLY_COMMANDS) {
      expect(readOnlyCommand(entry, { workspace: '/ws' }), entry).not.toBeNull();
      expect(segmentLevel(entry), entry).toBe('medium');
    }
  });
});
