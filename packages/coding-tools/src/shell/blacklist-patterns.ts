import { ARGV_RULES, type BlacklistCategory } from './blacklist-rules.js';

/**
 * Every pattern with its category and reason, for the documentation's blacklist table (the docs
 * site generates it from here, and its test checks each reason is on the page).
 */
export function blacklistPatterns(): Array<{ category: BlacklistCategory; pattern: string; why: string }> {
  const fromArgv = ARGV_RULES.map(({ category, pattern, why }) => ({ category, pattern, why }));
  return [
    ...fromArgv,
    { category: 'disk', pattern: '> /dev/<disk>', why: 'writes raw bytes onto a disk device' },
    { category: 'reverse_shell', pattern: '/dev/tcp/', why: 'opens a raw network connection from the shell' },
    { category: 'reverse_shell', pattern: 'nc … | sh', why: 'runs commands that arrive over a network connection' },
    { category: 'fork_bomb', pattern: ':(){ :|:& };:', why: 'a function that keeps spawning copies of itself exhausts the machine' },
    ...UNVERIFIABLE_PATTERNS,
  ];
}

/** The classes refused because the parser cannot verify them (issue 10); the refusal itself names the case. */
export const UNVERIFIABLE_PATTERNS: Array<{ category: BlacklistCategory; pattern: string; why: string }> = [
  {
    category: 'unverifiable',
    pattern: 'xargs / parallel → rm, shred, truncate, chown, chgrp, chmod -R',
    why: "a destructive verb that gets its targets from another command's output cannot be verified; run it with literal paths inside the workspace",
  },
  {
    category: 'unverifiable',
    pattern: 'find -delete / -exec rm outside the workspace',
    why: 'find deletes only from literal starting points inside the workspace, without -L; anything else is refused',
  },
  {
    category: 'unverifiable',
    pattern: 'rm "$D", rm $(…), rm {a,b}, rm ${HOME%/}, rm ~+',
    why: 'a destructive verb whose argument is a variable, a substitution or an expansion the parser cannot resolve is refused; write the paths out',
  },
  {
    category: 'unverifiable',
    pattern: 'rm -r of the workspace or outside it',
    why: 'recursive deletes must target paths inside the workspace, never the workspace itself, its parents or anything outside it',
  },
  {
    category: 'destructive',
    pattern: 'mv ~ / rsync --delete outside / git -C … clean',
    why: 'moving a protected directory away, mirroring over a directory outside the workspace or cleaning a repository outside it deletes as surely as rm -rf',
  },
  {
    category: 'unverifiable',
    pattern: 'cp /bin/rm x, ln -s /bin/dd d, hash -p /bin/rm x',
    why: 'a system program under a new name runs unrecognised; call programs by their own names',
  },
  {
    category: 'unverifiable',
    pattern: '$CMD … / $(…) … as the command',
    why: 'a command name that comes from a variable or a substitution cannot be verified; write the program name literally',
  },
  {
    category: 'unverifiable',
    pattern: '… | sh, sh <(…), source /dev/stdin, eval "$x"',
    why: 'text piped, decoded or substituted into a shell runs unseen; only literal text (echo, printf, here-documents) is checked and allowed',
  },
  {
    category: 'unverifiable',
    pattern: 'python -c / perl -e / node -e / ruby -e / php -r / awk system()',
    why: 'inline code that deletes files, starts a program, opens a connection or builds code at run time is refused; ordinary inline code asks like any command',
  },
];
