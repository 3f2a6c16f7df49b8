import { existsSync } from 'node:fs';
import type { MountOp } from './mount-plan.js';

export interface BwrapInvocation {
  /** Working directory inside the sandbox. */
  cwd: string;
  /** From `planMounts`: writable binds and hidden locations, in mount order. */
  mounts: readonly MountOp[];
  /** False adds `--unshare-net`: no interface but a private loopback. */
  network: boolean;
  /** What runs inside. */
  file: string;
  args: readonly string[];
  /** Mount arguments after the plan's (protected locations, the proxy socket): they win over it. */
  extra?: readonly string[];
}

/**
 * System sockets that hand out more power than the file system grants: a read-only mount does
 * not stop `connect()` on a socket file, and the container daemons' sockets are root in
 * disguise. `/run/user` holds the session's agents (ssh-agent, gpg-agent, D-Bus).
 */
export const HIDDEN_SYSTEM_LOCATIONS: readonly string[] = ['/run/docker.sock', '/var/run/docker.sock', '/run/containerd', '/run/podman', '/run/user'];

/**
 * Parts of the fresh /proc that change the whole machine, not the sandbox: a command running as
 * uid 0 (Tandem run by root) could write sysctls (`/proc/sys/kernel/hostname`, `core_pattern`)
 * even without capabilities, since the kernel checks the file mode for them. Made read-only.
 */
const PROC_COVER = ['sys', 'sysrq-trigger', 'irq', 'bus', 'fs', 'acpi', 'scsi', 'driver'];
let procCovers: string[] | undefined;

function procCoverArgs(): string[] {
  procCovers ??= PROC_COVER.map((name) => `/proc/${name}`).filter((p) => existsSync(p));
  return procCovers.flatMap((p) => ['--ro-bind', p, p]);
}

/**
 * The bubblewrap command line for one command. The whole file system is mounted read-only,
 * then a fresh /dev (no disks), a fresh /proc for a new PID namespace (its machine-wide knobs
 * read-only), a private /tmp, the
 * writable directories, and empty read-only cover over what must stay unseen. All capabilities
 * are dropped and bubblewrap sets no-new-privileges, so setuid programs (sudo, su) gain nothing.
 * No `--new-session`: the command keeps the pty as its controlling terminal (job control,
 * `/dev/tty`, typed input); that terminal is Tandem's own, not the user's.
 */
export function bwrapArgs(run: BwrapInvocation): string[] {
  const args = [
    '--ro-bind',
    '/',
    '/',
    '--dev',
    '/dev',
    '--proc',
    '/proc',
    ...procCoverArgs(),
    '--tmpfs',
    '/tmp',
    '--unshare-pid',
    '--unshare-ipc',
    '--unshare-uts',
    '--die-with-parent',
    '--cap-drop',
    'ALL',
  ];
  if (!run.network) args.push('--unshare-net');
  for (const op of run.mounts) {
    if (op.kind === 'writable') args.push('--bind', op.path, op.path);
    else if (op.kind === 'hide-dir') args.push('--perms', '0000', '--tmpfs', op.path, '--remount-ro', op.path);
    else args.push('--ro-bind', '/dev/null', op.path);
  }
  args.push(...(run.extra ?? []));
  args.push('--chdir', run.cwd, '--', run.file, ...run.args);
  return args;
}
