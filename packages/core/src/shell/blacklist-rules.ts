import path from 'node:path';
import { SYSTEM_DIRECTORIES, isWithin } from '../sandbox/protected-paths.js';
import { programName, shellFlags } from './command-invocations.js';

/**
 * The command blacklist (SPEC P3): commands refused before any permission decision, which no
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
  | 'system_control';

export interface ArgvRule {
  pattern: string;
  category: BlacklistCategory;
  why: string;
  matches(argv: readonly string[], name: string, env: RuleEnv): boolean;
}

export interface RuleEnv {
  /** The home directory, to recognize `rm -rf /home/me` as `rm -rf ~`. */
  home: string;
  /**
   * Where an earlier `cd` in the same command line left the shell: `start` is the directory
   * the command starts in (the workspace for run_command); `subdirectory` a named directory
   * below it or elsewhere, so `cd build && rm -rf *` only empties build.
   */
  cwd: WorkingDirectory;
}

export type WorkingDirectory = 'start' | 'subdirectory' | 'root' | 'home' | 'system';

/** The working directory after `cd ARG` / `pushd ARG`, or undefined when argv is not one. */
export function workingDirectoryAfter(argv: readonly string[], env: RuleEnv): WorkingDirectory | undefined {
  const name = programName(argv[0] ?? '');
  if (name !== 'cd' && name !== 'pushd') return undefined;
  const target = operands(argv.slice(1))[0];
  if (target === undefined || target === '~') return 'home';
  if (target === '-') return 'start';
  const kind = classifyTarget(target, env.home, env.cwd);
  if (kind === 'cwd') return target.split('/').includes('..') ? 'start' : env.cwd;
  if (kind === 'root' || kind === 'home' || kind === 'system') return kind;
  if (normalizeTarget(target).split('/').includes('..')) return 'start';
  return 'subdirectory';
}

const SYSTEM_ROOTS = [...SYSTEM_DIRECTORIES, '/home', '/Users', '/mnt', '/media'];

/** Operands (non-option words) of a command, honouring `--`. */
function operands(args: readonly string[]): string[] {
  const out: string[] = [];
  let optionsDone = false;
  for (const arg of args) {
    if (!optionsDone && arg === '--') optionsDone = true;
    else if (optionsDone || !arg.startsWith('-') || arg === '-') out.push(arg);
  }
  return out;
}

/** Short-option letters and long options before `--`: `-r -f` / `-rf` / `--recursive`. */
function flagSet(args: readonly string[]): Set<string> {
  const flags = new Set<string>();
  for (const arg of args) {
    if (arg === '--') break;
    if (arg.startsWith('--')) flags.add(arg.split('=')[0]!);
    else if (arg.startsWith('-') && arg.length > 1) for (const ch of arg.slice(1)) flags.add(`-${ch}`);
  }
  return flags;
}

/** `$HOME`, `${HOME}`, `"$HOME"/`, `~/` → `~`; `//` → `/`; trailing `/` and `/.` dropped. */
export function normalizeTarget(raw: string): string {
  let t = raw
    .replace(/\$\{HOME\}|\$HOME(?![A-Za-z0-9_])/g, '~')
    .replace(/\$\{PWD\}|\$PWD(?![A-Za-z0-9_])|\$\(\s*pwd\s*\)|`\s*pwd\s*`/g, '.')
    .replace(/\/{2,}/g, '/');
  if (t.startsWith('~') && !t.startsWith('~/') && t !== '~' && /^~[a-z_][a-z0-9_-]*\/?$/i.test(t)) return '~';
  if (t.startsWith('/')) return path.posix.normalize(t).replace(/(.)\/$/, '$1');
  if (t === '~' || t.startsWith('~/')) {
    const rest = path.posix.normalize(`./${t.slice(2)}`).replace(/\/$/, '');
    return rest === '.' ? '~' : rest.startsWith('..') ? '/' : `~/${rest}`;
  }
  return path.posix.normalize(t).replace(/\/$/, '');
}

const WHOLE_TREE_GLOBS = new Set(['*', '.*', '*.*', '.[!.]*', '{*,.*}']);

type TargetKind = 'root' | 'home' | 'cwd' | 'system' | undefined;

/** Which protected tree a (recursive) target would take out. */
export function classifyTarget(raw: string, home: string, cwd: WorkingDirectory = 'start'): TargetKind {
  const t = normalizeTarget(raw);
  if (t === '/' || t === '/*' || t === '/.*') return 'root';
  if (t === '~' || t === '~/*' || t === '~/.*' || t === '~/..') return 'home';
  if (t.startsWith('/')) {
    const homeNorm = path.posix.normalize(home).replace(/(.)\/$/, '$1');
    if (t === homeNorm || t === `${homeNorm}/*` || t === `${homeNorm}/.*`) return 'home';
    const dir = t.endsWith('/*') ? t.slice(0, -2) : t;
    if (SYSTEM_ROOTS.includes(dir)) return 'system';
    if (SYSTEM_ROOTS.some((root) => isWithin(dir, root)) && dir.split('/').length <= 3 && t.endsWith('/*')) return 'system';
    return undefined;
  }
  // Relative: only `.`/`..` steps, optionally ending in a whole-directory glob.
  const parts = t.split('/');
  const last = parts[parts.length - 1]!;
  const steps = WHOLE_TREE_GLOBS.has(last) ? parts.slice(0, -1) : parts;
  if (!steps.every((p) => p === '.' || p === '..')) return undefined;
  // `..` climbs above wherever we are: always the whole tree of something that matters.
  if (steps.includes('..')) return 'cwd';
  if (cwd === 'start') return 'cwd';
  return cwd === 'subdirectory' ? undefined : cwd;
}

function isRecursive(flags: Set<string>): boolean {
  return flags.has('-r') || flags.has('-R') || flags.has('--recursive');
}

function rmTargets(argv: readonly string[], env: RuleEnv, kinds: TargetKind[]): boolean {
  const flags = flagSet(argv.slice(1));
  const ops = operands(argv.slice(1));
  if (flags.has('--no-preserve-root') && kinds.includes('root')) return true;
  if (!isRecursive(flags)) return false;
  return ops.some((op) => kinds.includes(classifyTarget(op, env.home, env.cwd)));
}

const BLOCK_DEVICE = /^\/dev\/(sd|hd|vd|xvd|nvme|mmcblk|disk|rdisk|md|dm-|loop|mapper\/|sr|fd\d|nbd|zram)/;

function isBlockDevice(target: string): boolean {
  return BLOCK_DEVICE.test(target);
}

function isSystemPath(raw: string, env: RuleEnv): boolean {
  const t = normalizeTarget(raw);
  if (!t.startsWith('/')) return false;
  if (t === '/' || t === '/*') return true;
  return SYSTEM_DIRECTORIES.some((dir) => isWithin(t, dir)) || (t !== env.home && SYSTEM_ROOTS.includes(t));
}

const WORLD_WRITABLE_MODE = /^(0*[0-7]?777|[ugoa]*[+=]rwxs?t?|[+=]rwx)$/;

function isWorldWritableMode(mode: string): boolean {
  if (/^0*[0-7]?777$/.test(mode)) return true;
  // Symbolic: everyone (a, ugo, or no "who") gets rwx.
  return mode.split(',').some((clause) => {
    const m = /^([ugoa]*)[+=](r?w?x?[st]*)$/.exec(clause);
    if (!m) return false;
    const who = m[1]!;
    const all = who === '' || who.includes('a') || (who.includes('u') && who.includes('g') && who.includes('o'));
    return all && WORLD_WRITABLE_MODE.test(clause) && m[2]!.includes('w');
  });
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

const named = (...names: string[]) => (_argv: readonly string[], name: string) => names.includes(name);

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
      name === 'find' && argv.includes('-delete') && findStartingPoints(argv).some((op) => ['root', 'home', 'system'].includes(classifyTarget(op, env.home, env.cwd) ?? '')),
  },
  // disk
  {
    pattern: 'dd of=/dev/…',
    category: 'disk',
    why: 'writes raw bytes onto a device',
    matches: (argv, name) => name === 'dd' && argv.some((a) => a.startsWith('of=/dev/') && !/^of=\/dev\/(null|zero|stdout|stderr|tty|fd\/\d+)$/.test(a)),
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
    pattern: 'shred /dev/…',
    category: 'disk',
    why: 'overwrites a device',
    matches: (argv, name) => name === 'shred' && operands(argv.slice(1)).some(isBlockDevice),
  },
  // permission
  {
    pattern: 'chmod 777',
    category: 'permission',
    why: 'makes files writable by every user; use a narrower mode such as 644 or 755',
    matches: (argv, name) => name === 'chmod' && operands(argv.slice(1)).some((op, i) => i === 0 && isWorldWritableMode(op)),
  },
  {
    pattern: 'chmod <system path>',
    category: 'permission',
    why: 'changes permissions of system files',
    matches: (argv, name, env) => name === 'chmod' && operands(argv.slice(1)).slice(1).some((op) => isSystemPath(op, env)),
  },
  {
    pattern: 'chown <system path>',
    category: 'permission',
    why: 'changes ownership of system files',
    matches: (argv, name, env) => (name === 'chown' || name === 'chgrp') && operands(argv.slice(1)).slice(1).some((op) => isSystemPath(op, env)),
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
    matches: (argv, name) => ['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'fish', 'csh', 'tcsh'].includes(name) && shellFlags(argv.slice(1)).includes('i'),
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
      return /socket|fsockopen|\/inet\/tcp|TCPSocket|net\.connect|net\.Socket/i.test(code) && /dup2|pty\.spawn|subprocess|exec|popen|spawn|\/bin\/(ba)?sh|system\(/i.test(code);
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
      operands(argv.slice(1)).some((a) => ['poweroff', 'reboot', 'halt', 'kexec', 'suspend', 'hibernate', 'hybrid-sleep', 'rescue', 'emergency', 'soft-reboot'].includes(a)),
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

/** Every pattern with its category and reason, for the documentation's blacklist table. */
export function blacklistPatterns(): Array<{ category: BlacklistCategory; pattern: string; why: string }> {
  const fromArgv = ARGV_RULES.map(({ category, pattern, why }) => ({ category, pattern, why }));
  return [
    ...fromArgv,
    { category: 'disk', pattern: '> /dev/<disk>', why: 'writes raw bytes onto a disk device' },
    { category: 'reverse_shell', pattern: '/dev/tcp/', why: 'opens a raw network connection from the shell' },
    { category: 'reverse_shell', pattern: 'nc … | sh', why: 'runs commands that arrive over a network connection' },
    { category: 'fork_bomb', pattern: ':(){ :|:& };:', why: 'a function that keeps spawning copies of itself exhausts the machine' },
  ];
}
