import { describe, expect, it } from 'vitest';
import { DEFAULT_READ_ONLY_COMMANDS, readOnlyCommand } from '@tandem/coding-tools';
import { evaluatePermission } from '@tandem/coding-tools';
import type { PermissionRule } from '@tandem/coding-tools';
import { declared } from './declared-call.test-helper.js';

const workspace = '/home/u/project';
const readOnly = (command: string, list?: readonly string[]) => readOnlyCommand(command, { workspace, ...(list ? { list } : {}) });

describe('readOnlyCommand (requirements U4)', () => {
  it.each([
    ['ls', 'read-only command: ls'],
    ['ls -la src', 'read-only command: ls'],
    ['cat README.md | head -20', 'read-only command: cat, head'],
    ['wc -l src/*.ts && pwd', 'read-only command: wc, pwd'],
    ['git status', 'read-only command: git status'],
    ['git log --oneline -5; git diff HEAD~1', 'read-only command: git log, git diff'],
    ['git show HEAD:README.md', 'read-only command: git show'],
    ['git branch -a', 'read-only command: git branch'],
    ['grep -rn "TODO" src', 'read-only command: grep'],
    ['rg foo -g "*.ts"', 'read-only command: rg'],
    ["find . -name '*.ts' -type f", 'read-only command: find'],
    ['sort names.txt | uniq -c', 'read-only command: sort, uniq'],
    ['cut -d: -f1 data.txt', 'read-only command: cut'],
    ['echo hello', 'read-only command: echo'],
    ['which node; file package.json; stat src; du -sh .; df -h; tree src', 'read-only command: which, file, stat, du, df, tree'],
    ['ls 2>&1', 'read-only command: ls'],
    ['ls > /dev/null', 'read-only command: ls'],
    ['cat ./docs/../README.md', 'read-only command: cat'],
    [`cat ${workspace}/README.md`, 'read-only command: cat'],
    ['cat < notes.txt', 'read-only command: cat'],
  ])('%s runs without asking', (command, reason) => {
    expect(readOnly(command)?.reason).toBe(reason);
  });

  it.each([
    ['ls > listing.txt', 'a redirect into a file'],
    ['ls >> listing.txt', 'an appending redirect'],
    ['echo hi &> out.txt', 'both streams into a file'],
    ['cat $(echo notes.txt)', 'a command substitution'],
    ['cat `echo notes.txt`', 'backticks'],
    ['diff <(ls a) <(ls b)', 'a process substitution'],
    ['cat $HOME/.bashrc', 'a variable'],
    ['cat "${FILE}"', 'a braced variable'],
    ['FOO=1 ls', 'an assignment'],
    ['cat ~/.ssh/id_rsa', 'the home directory'],
    ['cat /etc/passwd', 'an absolute path outside the workspace'],
    ['cat ../secret.txt', 'a path climbing out of the workspace'],
    ['grep -r key --file=/etc/shadow .', 'an option value outside the workspace'],
    ['cat < /etc/shadow', 'an input redirect from outside'],
    ['./ls', 'a program path (could be a workspace script)'],
    ['/bin/ls', 'an absolute program path'],
    ['find . -delete', 'find -delete'],
    ['find . -name x -exec rm {} +', 'find -exec'],
    ['find . -execdir sh -c x \\;', 'find -execdir'],
    ['find . -fprint out.txt', 'find -fprint'],
    ['find . -ok rm {} \\;', 'find -ok'],
    ['sort -o out.txt in.txt', 'sort -o'],
    ['sort --output=out.txt in.txt', 'sort --output'],
    ['sort -ro out.txt in.txt', 'sort with -o in a flag group'],
    ['sort --compress-program=sh big.txt', 'sort running a program'],
    ['uniq in.txt out.txt', 'uniq writing its output file'],
    ['tree -o out.txt', 'tree -o'],
    ['file -C -m magic', 'file compiling a magic file'],
    ['rg --pre ./script foo', 'rg running a preprocessor'],
    ['git diff --output=patch.txt', 'git diff writing a file'],
    ['git -c core.pager=sh log', 'git with a config override'],
    ['git log --ext-diff', 'git with an external diff'],
    ['git branch -D old', 'git branch deleting'],
    ['git branch new-branch', 'git branch creating'],
    ['git push', 'a git subcommand not in the list'],
    ['git checkout main', 'git checkout'],
    ['date -s "2020-01-01"', 'date setting the clock'],
    ['ls && rm -rf build', 'one segment that writes'],
    ['cat notes.txt | sh', 'text piped into a shell'],
    ['ls | xargs rm', 'xargs'],
    ['cat <<EOF\nhello\nEOF', 'a here-document'],
    ['npm test', 'anything not on the list'],
    ['printenv', 'printenv (shows secrets; not on the default list)'],
    ['', 'an empty command'],
  ])('%s asks (%s)', (command) => {
    expect(readOnly(command)).toBeNull();
  });

  it('takes a configured list: entries are commands or command + subcommand; [] turns it off', () => {
    expect(readOnly('make -n', ['make'])?.reason).toBe('read-only command: make');
    expect(readOnly('ls', ['make'])).toBeNull();
    expect(readOnly('npm ls', ['npm ls'])?.reason).toBe('read-only command: npm ls');
    expect(readOnly('npm install', ['npm ls'])).toBeNull();
    expect(readOnly('ls', [])).toBeNull();
    // The built-in checks of a listed command apply whatever the list says.
    expect(readOnly('find . -delete', ['find'])).toBeNull();
    expect(readOnly('cat ~/.aws/credentials', ['cat'])).toBeNull();
  });

  it('the default list is the documented one', () => {
    const programs = 'ls cat head tail wc pwd echo which file stat du df tree grep rg find sort uniq cut'.split(' ');
    for (const entry of [...programs, 'git status', 'git log', 'git diff', 'git show', 'git branch']) {
      expect(DEFAULT_READ_ONLY_COMMANDS).toContain(entry);
    }
    expect(DEFAULT_READ_ONLY_COMMANDS).not.toContain('printenv');
  });
});

describe('evaluatePermission with readOnlyCommands', () => {
  const cmd = (command: string) => declared({ tool: 'run_command', args: { command }, danger: 'dangerous' as const });
  const opts = (rules: { stored?: PermissionRule[] } = {}) => ({
    sessionRules: [],
    storedRules: rules.stored ?? [],
    workspace,
    readOnlyCommands: DEFAULT_READ_ONLY_COMMANDS,
  });

  it('allows a read-only command at level safe, saying why', () => {
    expect(evaluatePermission(cmd('ls -la && git status'), opts())).toMatchObject({
      verdict: 'allow',
      readOnly: true,
      level: 'safe',
      reason: 'read-only command: ls, git status',
    });
  });

  it('still asks for anything else, at the command level', () => {
    expect(evaluatePermission(cmd('ls > out.txt'), opts())).toMatchObject({ verdict: 'ask', level: 'dangerous' });
  });

  it('a deny rule beats the read-only list', () => {
    const deny: PermissionRule = { tool: 'run_command', match: 'prefix', pattern: 'cat', effect: 'deny', by: 'bo' };
    expect(evaluatePermission(cmd('cat notes.txt'), opts({ stored: [deny] }))).toMatchObject({ verdict: 'deny' });
  });

  it('without the option nothing is lowered (the pure policy default)', () => {
    expect(evaluatePermission(cmd('ls'), { sessionRules: [], storedRules: [], workspace })).toMatchObject({ verdict: 'ask', level: 'dangerous' });
  });
});
