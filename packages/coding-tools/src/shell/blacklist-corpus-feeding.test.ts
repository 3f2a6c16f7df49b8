import { describe, expect, it } from 'vitest';
import { expectRefused } from './blacklist-corpus.test-helper.js';

/**
 * Destructive verbs whose targets come from another command or from shell code the parser
 * cannot resolve: xargs, find actions, parallel, loops, functions and aliases. Several spellings
 * each, with the wrappers, quoting and separators an attacker would reach for.
 */
export const XARGS = [
  'ls | xargs rm -rf',
  'echo ~ | xargs rm -rf',
  'find ~ -maxdepth 0 | xargs rm -rf',
  'printf "%s\\n" ~ | xargs -I{} rm -rf {}',
  'echo ~ | xargs -I % rm -rf %',
  'find . -print0 | xargs -0 rm -rf',
  'echo / | xargs -n1 rm -r -f',
  'echo ~ | xargs --max-args=1 rm --recursive --force',
  'echo ~ | xargs -r -- rm -fr',
  'cat list | xargs nice -n 5 rm -rf',
  'cat list | xargs env rm -rf',
  'cat list | xargs timeout 5 /bin/rm -rf',
  'cat list | xargs command rm -rf',
  'cat list | xargs \\rm -rf',
  "cat list | xargs 'r''m' -rf",
  'cat list | /usr/bin/xargs rm -rf',
  'cat list | nohup xargs rm -rf',
  'echo ~ | xargs -I{} sh -c "rm -rf {}"',
  "echo ~ | xargs -I% bash -c 'rm -rf %'",
  'echo ~ | xargs sh -c \'rm -rf "$1"\' _',
  'ls | xargs rm',
  'ls | xargs shred -u',
  'ls | xargs truncate -s 0',
  'ls | xargs chown nobody',
  'ls | xargs chmod -R 700',
  'ls | xargs unlink',
  '(echo ~ | xargs rm -rf)',
  '{ echo ~ | xargs rm -rf; }',
  'echo ok && echo ~ | xargs rm -rf',
  'echo ok\necho ~ | xargs rm -rf',
  'xargs -0a list rm -rf',
  'xargs -tn1 rm -rf < list',
];

export const FIND_ACTIONS = [
  'find ~ -name "*.txt" -delete',
  'find /tmp -name x -delete',
  'find .. -name "*.js" -delete',
  'find ../other -delete',
  'find "$HOME/projects" -name "*.o" -delete',
  'find $D -delete',
  'find -L . -name "*.tmp" -delete',
  'find . -follow -name x -delete',
  'find ~ -type f -exec rm {} \\;',
  'find ~ -exec rm -rf {} +',
  'find /home/tester -execdir rm -rf {} \\;',
  'find ~ -ok rm -rf {} \\;',
  'find ~/.. -okdir shred -u {} \\;',
  'find . -exec rm -rf {}/.. \\;',
  'find . -delete',
  'find . -mindepth 1 -delete',
  'find . -exec rm -rf {} +',
  'cd .. && find . -name "*.log" -delete',
  'cd /tmp; find . -name "*.log" -delete',
  'find $(pwd)/.. -delete',
  'env find ~ -delete',
  'nice find ~ -name x -exec /bin/rm -rf {} +',
  'find /home/tester/projects -name app -exec rm -rf {} +',
];

export const PARALLEL = [
  'ls | parallel rm -rf',
  'ls | parallel rm -rf {}',
  "parallel 'rm -rf {}' ::: ~ /tmp",
  'parallel -j4 rm -rf ::: a b',
  'echo ~ | parallel -X shred -u {}',
  'cat list | parallel --jobs 2 "chown nobody {}"',
  'parallel ::: "rm -rf ~"',
];

export const LOOPS = [
  'while read d; do rm -rf "$d"; done < list.txt',
  'cat list | while read -r d; do rm -rf $d; done',
  'while IFS= read -r f; do shred -u "$f"; done',
  'for x in ~ /tmp/x; do rm -rf $x; done',
  'for x in $(cat list); do rm -rf "$x"; done',
  'for d in */; do rm -rf "$d"; done',
  'for f in *.log; do truncate -s 0 "${f}"; done',
  'for i in 1 2; do rm -rf ~; done',
  'until false; do rm -rf "$TARGET"; done',
  'select d in a b; do rm -rf $d; done',
  'for ((i=0;i<1;i++)); do rm -rf "$HOME_DIR"; done',
];

/** Deletes that do not say rm, and new names for programs the blacklist knows. */
export const INDIRECT = [
  'mv ~ /tmp/gone',
  'mv / /x',
  'mv /etc /tmp/etc',
  `mv ${'/home/tester/projects/app'} /tmp/x`,
  'mv . ../elsewhere',
  'rsync -a --delete empty/ ~/',
  'rsync -a --delete-after ./empty/ /tmp/x',
  'rsync --delete -r empty/ "$DEST"',
  'git -C .. clean -fdx',
  'git -C ~ clean -fdx',
  'git --work-tree=/tmp/x clean -fdx',
  'cp /bin/rm ./x && ./x -rf ~',
  'ln -s /usr/bin/dd ./d',
  'ln -sf /bin/bash ./b && ./b -c "rm -rf ~"',
  'install /usr/bin/shred ./s',
  'cp "$(which rm)" ./x',
  'hash -p /bin/rm x; x -rf ~',
  "vim -c '!rm -rf ~' -c q",
  "vi +':!rm -rf ~' +q",
  "nvim --cmd ':silent !rm -rf ~'",
  "expect -c 'spawn sh'",
  'toybox rm -rf ~',
];

export const FUNCTIONS_AND_ALIASES = [
  'f(){ rm -rf "$1"; }; f ~',
  'f() { rm -rf "$@"; }; f ~',
  'function f { rm -rf "$1"; }; f ~',
  'function f() { rm -r -f -- "$1"; }\nf /',
  'f(){ rm "$@"; }; f -rf ~',
  'nuke() ( rm -rf "$1" ); nuke ~',
  'g(){ "$@"; }; g rm -rf ~',
  "alias x='rm -rf'; x ~",
  'alias x="rm -rf ~"; x',
  "alias del='rm -rf ~/'; del",
  "alias n='$CMD'; n",
  'f(){ rm -rf ~; }; f',
  'f(){ find ~ -delete; }; f',
  'coproc x { rm -rf "$1"; }',
  'coproc rm -rf ~',
  'trap "rm -rf ~" EXIT',
  "trap 'rm -rf $D' EXIT",
];

describe('blacklist corpus: arguments fed by another command or by shell code', () => {
  it.each(XARGS)('xargs: refuses %j', (command) => {
    expectRefused(command);
  });

  it.each(FIND_ACTIONS)('find actions: refuses %j', (command) => {
    expectRefused(command);
  });

  it.each(PARALLEL)('parallel: refuses %j', (command) => {
    expectRefused(command);
  });

  it.each(LOOPS)('loops: refuses %j', (command) => {
    expectRefused(command);
  });

  it.each(FUNCTIONS_AND_ALIASES)('functions and aliases: refuses %j', (command) => {
    expectRefused(command);
  });

  it.each(INDIRECT)('deletes without rm, and new names for known programs: refuses %j', (command) => {
    expectRefused(command);
  });

  it('says which feeder could not be verified and how to write it literally', () => {
    const xargs = expectRefused('find . -name x | xargs rm -rf', 'unverifiable');
    expect(xargs.message).toContain('rm -rf gets its targets from xargs');
    expect(xargs.message).toContain('run rm -rf with literal paths inside the workspace');
    const find = expectRefused('find /tmp/work -name "*.txt" -delete', 'destructive');
    expect(find.message).toContain(`outside the workspace`);
    expect(find.message).toMatch(/start find at a literal path inside the workspace/);
    const loop = expectRefused('for x in $(cat list); do rm -rf "$x"; done', 'unverifiable');
    expect(loop.message).toContain('the variable `$x`');
    const fn = expectRefused('f(){ rm -rf "$1"; }; f ~', 'unverifiable');
    expect(fn.message).toContain('the shell parameter `$1`');
  });
});
