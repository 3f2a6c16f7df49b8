import { programName, shellFlags } from './command-invocations.js';
import { classifyTarget, isBlockDevice, isSystemPath, operands, rmTargets, type TargetContext } from './command-targets.js';

/**
 * The command blacklist (requirements P3): commands refused before any permission decision, which no
 * stored or interactive permission can unlock. Each rule names its category and pattern so the
 * refusal says exactly what matched.
 */
export type BlacklistCategory =
  | 'destructive'
  | 'disk'
  | 'permission'
  | 'privilege_escalation'
  | 'fork_bomb'
  | 'reverse_shell'
  | 'system_control'
  | 'unverifiable';

export type RuleEnv = TargetContext;

export interface ArgvRule {
  pattern: string;
  category: BlacklistCategory;
  why: string;
  matches(argv: readonly string[], name: string, env: RuleEnv): boolean;
}

/**
 * Modes that let every user write: numeric with the others' write bit (`777`, `0666`, `1777`),
 * symbolic giving `o`/`a` write (`a+rwx`, `o+w`, `ugo=rwx`, `go=u`), or `+rwx` / `=rwx` with no
 * "who" (equal to 777 whatever the umask is taken to be).
 */
export function isWorldWritableMode(mode: string): boolean {
  if (/^[0-7]{1,5}$/.test(mode)) return (parseInt(mode.slice(-1), 8) & 2) !== 0;
  // GNU chmod also takes `+777`, `=0666`: octal bits added or set.
  if (/^([ugoa]*[+=][0-7]{1,5},?)+$/.test(mode)) return mode.split(',').some((c) => /[+=]/.test(c) && (parseInt(c.slice(-1), 8) & 2) !== 0);
  return mode.split(',').some((clause) => {
    const m = /^([ugoa]*)([-+=][rwxXstugo]*)+$/.exec(clause);
    if (!m) return false;
    const who = m[1]!;
    const ops = clause.slice(who.length).match(/[-+=][rwxXstugo]*/g) ?? [];
    return ops.some((op) => {
      if (op[0] === '-') return false;
      const perms = op.slice(1);
      const grantsWrite = perms.includes('w') || /[ug]/.test(perms);
      if (who === '') return /r/.test(perms) && /w/.test(perms) && /[xX]/.test(perms);
      return grantsWrite && (who.includes('a') || who.includes('o'));
    });
  });
}

/** `-m 777` / `--mode=0777` of mkdir, install, mkfifo, mknod. */
function modeOption(args: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-m' || a === '--mode') return args[i + 1];
    if (a.startsWith('--mode=')) return a.slice(7);
    if (/^-m./.test(a)) return a.slice(2);
  }
  return undefined;
}

/** `umask 000`, `umask 0`, `umask o=rwx`: later files become writable by every user. */
function isOpenUmask(args: readonly string[]): boolean {
  const value = args.find((a) => !a.startsWith('-'));
  if (value === undefined) return false;
  if (/^[0-7]{1,4}$/.test(value)) return (parseInt(value.slice(-1), 8) & 2) === 0;
  return /(^|,)[ugo]*[ao][ugo]*[+=][rwx]*w/.test(value);
}

/** `find -H -L dir1 dir2 -name x` → [dir1, dir2] (no starting point means "."). */
function findStartingPoints(argv: readonly string[]): string[] {
  const rest = argv.slice(1);
  let i = 0;
  while (i < rest.length && /^-[HLP]$/.test(rest[i]!)) i++;
  const points: string[] = [];
  while (i < rest.length && !/^[-(!]/.test(rest[i]!)) points.push(rest[i++]!);
  return points.length > 0 ? points : ['.'];
}

/** `kill -9 -1`, `kill -s KILL 1`, `kill -- -1` → the pid operands. */
function killPids(args: readonly string[]): string[] {
  let i = 0;
  if (args[i] === '-s' || args[i] === '-n') i += 2;
  else if (args[i] === '-l' || args[i] === '-L') return [];
  else if (args[i] !== undefined && /^-([A-Za-z]+|\d+)$/.test(args[i]!) && args.length > 1) i += 1;
  if (args[i] === '--') i++;
  return args.slice(i);
}

const named =
  (...names: string[]) =>
  (_argv: readonly string[], name: string) =>
    names.includes(name);

export const ARGV_RULES: readonly ArgvRule[] = [
  // destructive
  {
    pattern: 'rm -rf /',
    category: 'destructive',
    why: 'recursively deletes the whole file system',
    matches: (argv, name, env) => name === 'rm' && rmTargets(argv, env, ['root']),
  },
  {
    pattern: 'rm -rf ~',
    category: 'destructive',
    why: 'recursively deletes the home directory',
    matches: (argv, name, env) => name === 'rm' && rmTargets(argv, env, ['home']),
  },
  {
    pattern: 'rm -rf . / .. / *',
    category: 'destructive',
    why: 'recursively deletes the whole current directory (or its parent); delete named subdirectories instead, e.g. rm -rf ./build',
    matches: (argv, name, env) => name === 'rm' && rmTargets(argv, env, ['cwd']),
  },
  {
    pattern: 'rm -rf <system directory>',
    category: 'destructive',
    why: 'recursively deletes a system directory',
    matches: (argv, name, env) => name === 'rm' && rmTargets(argv, env, ['system']),
  },
  {
    pattern: 'find / -delete',
    category: 'destructive',
    why: 'deletes everything under the root, the home directory or a system directory',
    matches: (argv, name, env) =>
      name === 'find' &&
      argv.includes('-delete') &&
      findStartingPoints(argv).some((op) => ['root', 'home', 'system'].includes(classifyTarget(op, env.home, env.cwd) ?? '')),
  },
  // disk
  {
    pattern: 'dd',
    category: 'disk',
    why: 'dd copies raw bytes onto whatever it is given, a disk included, and is refused in every form; to make a file of a given size use truncate -s 1M file.img, to copy a file use cp',
    matches: named('dd', 'dcfldd', 'dc3dd'),
  },
  {
    pattern: 'mkfs',
    category: 'disk',
    why: 'creates a file system, erasing the device',
    matches: (_argv, name) => name === 'mkfs' || name.startsWith('mkfs.') || ['mke2fs', 'mkswap', 'mkntfs', 'newfs', 'mkdosfs', 'mkexfatfs'].includes(name),
  },
  { pattern: 'format', category: 'disk', why: 'formats a disk', matches: named('format') },
  { pattern: 'fdisk', category: 'disk', why: 'rewrites partition tables', matches: named('fdisk', 'sfdisk', 'cfdisk', 'gdisk', 'sgdisk', 'cgdisk') },
  { pattern: 'parted', category: 'disk', why: 'rewrites partition tables', matches: named('parted', 'gparted', 'partprobe') },
  { pattern: 'wipefs', category: 'disk', why: 'erases file system signatures or whole devices', matches: named('wipefs', 'blkdiscard', 'diskutil') },
  {
    pattern: 'tee / cp onto /dev/<disk>',
    category: 'disk',
    why: 'writes onto a disk device',
    matches: (argv, name) => ['tee', 'cp', 'mv', 'install', 'pv'].includes(name) && operands(argv.slice(1)).some(isBlockDevice),
  },
  {
    pattern: 'truncate /dev/…',
    category: 'disk',
    why: 'truncates a device',
    matches: (argv, name) => (name === 'truncate' || name === 'fallocate') && operands(argv.slice(1)).some(isBlockDevice),
  },
  {
    pattern: 'shred /dev/…',
    category: 'disk',
    why: 'overwrites a device',
    matches: (argv, name) => name === 'shred' && operands(argv.slice(1)).some(isBlockDevice),
  },
  // permission
  {
    pattern: 'chmod 777',
    category: 'permission',
    why: 'makes files writable by every user (numeric 777/666, a+rwx, o+w, +rwx, =rwx alike); use a narrower mode such as 644 or 755',
    matches: (argv, name) => name === 'chmod' && isWorldWritableMode(operands(argv.slice(1))[0] ?? ''),
  },
  {
    pattern: 'mkdir -m 777 / install -m 777',
    category: 'permission',
    why: 'creates files or directories writable by every user; use a narrower mode such as 755',
    matches: (argv, name) => ['mkdir', 'install', 'mknod', 'mkfifo'].includes(name) && isWorldWritableMode(modeOption(argv.slice(1)) ?? ''),
  },
  {
    pattern: 'umask 000',
    category: 'permission',
    why: 'makes every file created afterwards writable by every user; keep the default umask (022)',
    matches: (argv, name) => name === 'umask' && isOpenUmask(argv.slice(1)),
  },
  {
    pattern: 'chmod <system path>',
    category: 'permission',
    why: 'changes permissions of system files',
    matches: (argv, name, env) =>
      name === 'chmod' &&
      operands(argv.slice(1))
        .slice(1)
        .some((op) => isSystemPath(op, env)),
  },
  {
    pattern: 'chown <system path>',
    category: 'permission',
    why: 'changes ownership of system files',
    matches: (argv, name, env) =>
      (name === 'chown' || name === 'chgrp') &&
      operands(argv.slice(1))
        .slice(1)
        .some((op) => isSystemPath(op, env)),
  },
  // privilege escalation
  { pattern: 'sudo', category: 'privilege_escalation', why: 'runs a command as another user (root)', matches: named('sudo', 'sudoedit') },
  { pattern: 'su', category: 'privilege_escalation', why: 'switches to another user (root)', matches: named('su') },
  { pattern: 'pkexec', category: 'privilege_escalation', why: 'runs a command as root via polkit', matches: named('pkexec') },
  { pattern: 'doas', category: 'privilege_escalation', why: 'runs a command as root', matches: named('doas', 'runuser') },
  // reverse shells
  {
    pattern: 'nc -e',
    category: 'reverse_shell',
    why: 'connects a shell to a network socket',
    matches: (argv, name) => {
      if (!['nc', 'ncat', 'netcat', 'nc.traditional', 'nc.openbsd'].includes(name)) return false;
      return argv.slice(1).some((a) => /^-[a-zA-Z]*[ec]/.test(a) || /^--(exec|sh-exec|lua-exec)/.test(a));
    },
  },
  {
    pattern: 'bash -i',
    category: 'reverse_shell',
    why: 'starts an interactive shell, the core of a reverse shell; run the commands directly instead',
    matches: (argv, name) =>
      ['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'fish', 'csh', 'tcsh'].includes(name) && shellFlags(argv.slice(1)).includes('i'),
  },
  {
    pattern: 'mkfifo',
    category: 'reverse_shell',
    why: 'named pipes are how shells get wired to sockets',
    matches: (argv, name) => name === 'mkfifo' || (name === 'mknod' && operands(argv.slice(1)).includes('p')),
  },
  {
    pattern: 'python/perl/ruby/php socket + shell',
    category: 'reverse_shell',
    why: 'inline code that connects a socket and hands it a shell',
    matches: (argv, name) => {
      if (!/^(python[0-9.]*|perl|ruby|php[0-9.]*|node|nodejs|lua[0-9.]*|awk|gawk)$/.test(name)) return false;
      const code = argv.slice(1).join(' ');
      return (
        /socket|fsockopen|\/inet\/tcp|TCPSocket|net\.connect|net\.Socket/i.test(code) &&
        /dup2|pty\.spawn|subprocess|exec|popen|spawn|\/bin\/(ba)?sh|system\(/i.test(code)
      );
    },
  },
  {
    pattern: 'socat exec:',
    category: 'reverse_shell',
    why: 'connects a program to a network socket',
    matches: (argv, name) => name === 'socat' && argv.slice(1).some((a) => /^(exec|system):/i.test(a)),
  },
  // system control
  {
    pattern: 'shutdown / reboot / halt / poweroff',
    category: 'system_control',
    why: 'stops or restarts the machine',
    matches: named('shutdown', 'reboot', 'halt', 'poweroff', 'kexec'),
  },
  {
    pattern: 'init 0 / init 6',
    category: 'system_control',
    why: 'changes the run level (halt or reboot)',
    matches: (argv, name) => (name === 'init' || name === 'telinit') && operands(argv.slice(1)).some((a) => /^[0156sS]$/.test(a)),
  },
  {
    pattern: 'systemctl poweroff / reboot',
    category: 'system_control',
    why: 'stops or restarts the machine',
    matches: (argv, name) =>
      (name === 'systemctl' || name === 'loginctl') &&
      operands(argv.slice(1)).some((a) =>
        ['poweroff', 'reboot', 'halt', 'kexec', 'suspend', 'hibernate', 'hybrid-sleep', 'rescue', 'emergency', 'soft-reboot'].includes(a),
      ),
  },
  {
    pattern: 'kill -1 / kill 1',
    category: 'system_control',
    why: 'signals every process (pid -1) or init (pid 1)',
    matches: (argv, name) => name === 'kill' && killPids(argv.slice(1)).some((pid) => pid === '-1' || pid === '1'),
  },
];

/** Redirection targets: raw sockets and block devices. */
export function redirectRule(target: string): { pattern: string; category: BlacklistCategory; why: string } | undefined {
  if (/^\/dev\/(tcp|udp)\//.test(target)) return { pattern: '/dev/tcp/', category: 'reverse_shell', why: 'opens a raw network connection from the shell' };
  if (isBlockDevice(target)) return { pattern: '> /dev/<disk>', category: 'disk', why: 'writes raw bytes onto a disk device' };
  return undefined;
}

/** Words that open a raw socket wherever they appear as an argument (`cat /dev/tcp/h/80`). */
export function socketWord(argv: readonly string[]): boolean {
  const name = programName(argv[0] ?? '');
  if (name === 'echo' || name === 'printf') return false;
  return argv.some((a) => /\/dev\/(tcp|udp)\//.test(a));
}
