/**
 * Commands that run another command given as their arguments (`env rm …`, `nice rm …`), with
 * the options each takes a value for, so the checker can find the real program behind them.
 */
/** Options (per wrapper) that take the next word as their value. */
export interface WrapperSpec {
  valueOptions: string[];
  /** Positional words the wrapper takes before the command (timeout's duration, chroot's root). */
  positionals?: number;
  /** An option whose value is itself a command string. */
  scriptOptions?: string[];
  /** When one of these options is present, nothing is executed (`command -v x`). */
  lookupOptions?: string[];
}

export const WRAPPERS: Record<string, WrapperSpec> = {
  env: { valueOptions: ['-u', '--unset', '-C', '--chdir', '-P'], scriptOptions: ['-S', '--split-string'] },
  command: { valueOptions: [], lookupOptions: ['-v', '-V'] },
  builtin: { valueOptions: [] },
  exec: { valueOptions: ['-a'] },
  nice: { valueOptions: ['-n', '--adjustment'] },
  nohup: { valueOptions: [] },
  time: { valueOptions: ['-f', '--format', '-o', '--output'] },
  timeout: { valueOptions: ['-s', '--signal', '-k', '--kill-after'], positionals: 1 },
  xargs: {
    valueOptions: [
      '-a',
      '--arg-file',
      '-d',
      '--delimiter',
      '-E',
      '-e',
      '-I',
      '-i',
      '-L',
      '-l',
      '-n',
      '--max-args',
      '-P',
      '--max-procs',
      '-s',
      '--max-chars',
      '--process-slot-var',
    ],
  },
  stdbuf: { valueOptions: ['-i', '--input', '-o', '--output', '-e', '--error'] },
  ionice: { valueOptions: ['-c', '--class', '-n', '--classdata', '-p', '--pid', '-P', '--pgid', '-u', '--uid'] },
  setsid: { valueOptions: [] },
  strace: { valueOptions: ['-o', '-e', '-p', '-s', '-u', '-E', '-a', '-b', '-I', '-O', '-P', '-S', '-X'] },
  ltrace: { valueOptions: ['-o', '-e', '-p', '-s', '-u', '-a', '-n', '-A', '-D', '-F', '-x', '-L'] },
  chroot: { valueOptions: ['--userspec', '--groups'], positionals: 1 },
  unshare: { valueOptions: ['--map-user', '--map-group', '-S', '--setuid', '-G', '--setgid', '-w', '--wd', '-R', '--root'] },
  nsenter: { valueOptions: ['-t', '--target', '-S', '--setuid', '-G', '--setgid', '-w', '--wd', '-r', '--root'] },
  flock: { valueOptions: ['-w', '--timeout', '-E', '--conflict-exit-code'], positionals: 1, scriptOptions: ['-c', '--command'] },
  taskset: { valueOptions: [], positionals: 1 },
  chrt: { valueOptions: [], positionals: 1 },
  caffeinate: { valueOptions: ['-t', '-w'] },
  busybox: { valueOptions: [] },
  toybox: { valueOptions: [] },
  firejail: { valueOptions: [] },
  catchsegv: { valueOptions: [] },
  unbuffer: { valueOptions: [] },
  faketime: { valueOptions: [], positionals: 1 },
  proxychains: { valueOptions: ['-f'] },
  proxychains4: { valueOptions: ['-f'] },
  torsocks: { valueOptions: [] },
  chronic: { valueOptions: [] },
  entr: { valueOptions: [] },
  'xvfb-run': { valueOptions: ['-n', '--server-num', '-e', '--error-file', '-f', '--auth-file', '-s', '--server-args', '-p', '--xauth-protocol'] },
  'dbus-run-session': { valueOptions: ['--config-file', '--dbus-daemon'] },
  'systemd-run': {
    valueOptions: [
      '-p',
      '--property',
      '-u',
      '--unit',
      '--description',
      '--slice',
      '-E',
      '--setenv',
      '--working-directory',
      '-M',
      '--machine',
      '-H',
      '--host',
      '--uid',
      '--gid',
      '--nice',
    ],
  },
  'systemd-inhibit': { valueOptions: ['--what', '--who', '--why', '--mode'] },
  setpriv: {
    valueOptions: ['--reuid', '--regid', '--groups', '--inh-caps', '--ambient-caps', '--bounding-set', '--securebits', '--selinux-label', '--apparmor-profile'],
  },
  prlimit: { valueOptions: ['-p', '--pid'] },
  cpulimit: { valueOptions: ['-l', '--limit', '-p', '--pid', '-e', '--exe'] },
  chpst: { valueOptions: ['-u', '-U', '-e', '-/', '-n', '-l', '-L', '-m', '-d', '-o', '-p', '-f', '-c', '-r', '-t'] },
  sshpass: { valueOptions: ['-p', '-f', '-d', '-e'] },
  script: {
    valueOptions: ['-E', '--echo', '-I', '--log-in', '-O', '--log-out', '-T', '--log-timing', '-B', '--log-io', '-m', '--logging-format'],
    scriptOptions: ['-c', '--command'],
  },
  sg: { valueOptions: [], positionals: 1, scriptOptions: ['-c'] },
};
