/**
 * The shell's arguments for one command line: an EXIT trap, then the command.
 *
 * Why a trap at all: the process at the top of the pty is its session leader, and
 * when the pty's master side is closed while the leader still lives, the kernel hangs the
 * terminal up and sends the leader SIGHUP. node-pty closes the master as soon as a read returns
 * EIO, which happens the moment no process holds the terminal open any more. `bash -c 'rm -rf
 * build'` execs `rm` in place of the shell, so `rm` is the leader; like most coreutils it closes
 * its standard streams itself just before it exits (to report write errors), so the master sees
 * EIO, node-pty closes it, and the kernel's SIGHUP lands in the few microseconds between that
 * close and `rm`'s exit: a successful command reported as "killed by signal SIGHUP" (about 4 in
 * 10 runs on a loaded machine). With a trap set, bash (and dash) no longer exec the last command
 * but wait for it, so the shell stays the leader and keeps the terminal open until it has exited
 * with the command's status. The command sees no difference.
 *
 * What the trap runs: it prints `endMark` and waits for one line on the terminal, so the shell
 * does not leave before its output has been read (see end-mark.ts); the shell's exit status stays
 * the command's (bash and dash both keep it through an EXIT trap).
 */
export function shellArgs(command: string, endMark: string): string[] {
  if (!/^[\u001b\u0007\]\w;-]+$/.test(endMark)) throw new Error('an end mark holds only ESC, BEL, ], ;, -, letters and digits');
  return ['-c', `trap 'printf "%s" "${endMark}"; read -r _ 2>/dev/null' EXIT; ${command}`];
}
