import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PtyCommandRunner } from '../pty/pty-runner.js';
import { procStat } from '../pty/process-group.js';
import type { CommandWrapper, SandboxSession } from './os-sandbox.js';
import { BWRAP, bwrapSkipNotice, testSandbox } from './sandbox.test-helper.js';
import { systemSockets } from './system-sockets.js';

/*
 * Destructive commands run FOR REAL inside bubblewrap, called on the runner directly (no
 * blacklist, no permission: this is the OS layer alone), against a throwaway tree: HOME, the
 * workspace, a granted directory, Tandem's data directory and a sibling directory full of
 * canaries. The tree lives under /var/tmp, not /tmp, so it is the read-only root that protects
 * it (the sandbox's /tmp is private and would hide a /tmp tree anyway). Every command targets
 * only that tree, never a real home or system path.
 */

const SECRET = 'BEGIN-OPENSSH-PRIVATE-KEY-canary';
const PYTHON = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';

let root: string;
let home: string;
let ws: string;
let granted: string;
let data: string;
let outside: string;
let canaries: Record<string, string>;
let roots: string[];
let calls = 0;

function makeTree(): void {
  const base = existsSync('/var/tmp') ? '/var/tmp' : tmpdir();
  root = mkdtempSync(join(base, 'tandem-os-sandbox-'));
  home = join(root, 'home');
  ws = join(root, 'workspace');
  granted = join(root, 'granted');
  data = join(root, 'data');
  outside = join(root, 'outside');
  canaries = {
    [join(home, 'notes.txt')]: 'home canary',
    [join(home, '.ssh', 'id_ed25519')]: SECRET,
    [join(home, '.aws', 'credentials')]: 'aws canary',
    [join(home, '.netrc')]: 'machine example.com password canary',
    [join(home, 'other-project', 'main.c')]: 'other project canary',
    [join(data, 'token')]: 'tandem token canary',
    [join(data, 'sessions', 's1', 'events.jsonl')]: '{"seq":1}\n',
    [join(outside, 'canary.txt')]: 'outside canary',
  };
  for (const [file, text] of Object.entries(canaries)) {
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, text, { mode: 0o644 });
  }
  mkdirSync(ws, { recursive: true });
  mkdirSync(granted, { recursive: true });
}

function canariesNow(): Record<string, string | null> {
  return Object.fromEntries(Object.keys(canaries).map((file) => [file, existsSync(file) ? readFileSync(file, 'utf8') : null]));
}

function runner(
  network = true,
  session: Omit<SandboxSession, 'writableRoots'> = {},
): { run(command: string): ReturnType<PtyCommandRunner['run']>; sandbox: CommandWrapper } {
  const sandbox = testSandbox({ home, dataDir: data, network }).wrapperFor({ writableRoots: () => roots, ...session })!;
  const pty = new PtyCommandRunner({ logDir: join(root, 'logs'), killGraceMs: 300, sandbox });
  return {
    sandbox,
    run: (command) =>
      pty.run({
        command,
        cwd: ws,
        env: { HOME: home, DATA_DIR: data },
        timeoutMs: 60_000,
        signal: new AbortController().signal,
        callId: `c${++calls}`,
        sessionId: 's1',
        onData: () => undefined,
      }),
  };
}

if (!BWRAP.ok) bwrapSkipNotice('the OS sandbox suite (destructive commands against a throwaway tree)');

describe.skipIf(!BWRAP.ok)('OS sandbox: destructive commands the blacklist would not see', () => {
  beforeAll(makeTree);
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  beforeEach(() => {
    roots = [ws, granted];
  });

  const attacks: Array<[string, string]> = [
    ['cd to HOME and delete everything', 'cd ~ && rm -rf .'],
    ['find -delete on HOME', 'find "$HOME" -delete'],
    ['python shutil.rmtree of HOME', `${PYTHON} -c "import os, shutil; shutil.rmtree(os.path.expanduser('~'))"`],
    ['perl rmtree through a variable', `perl -MFile::Path=remove_tree -e 'remove_tree($ENV{HOME}, "${'$'}{ENV{HOME}}/../outside")'`],
    ['node rmSync of the parent of the workspace', `node -e "require('fs').rmSync(require('path').dirname(process.cwd()), { recursive: true, force: true })"`],
    ['xargs fed from ls', 'ls -d "$HOME"/* "$HOME"/.[a-z]* ../outside/* | xargs rm -rf'],
    ['a loop over the parent directory', 'for d in ../*; do rm -rf "$d"; done'],
    ['overwrite a file outside the workspace', 'echo pwned > ../outside/canary.txt; : > "$HOME/notes.txt"'],
    ['dd over a file outside', 'dd if=/dev/zero of=../outside/canary.txt bs=1k count=1'],
    ['chmod 777 and truncate outside', 'chmod 777 ../outside/canary.txt; truncate -s0 ../outside/canary.txt'],
    ['a symlink out of the workspace', 'ln -sfn ../outside escape && rm -rf escape/ escape/*'],
    ['wipe the data directory', 'rm -rf "$DATA_DIR"; echo x > "$DATA_DIR/token"; rm -rf "$DATA_DIR/sessions"'],
    ['plant a key in ~/.ssh', 'mkdir -p ~/.ssh && echo "ssh-ed25519 AAAA attacker" >> ~/.ssh/authorized_keys; cp /dev/null ~/.ssh/id_ed25519'],
    ['a background child that outlives the command', `(sleep 0.3; rm -rf "$HOME") > /dev/null 2>&1 &`],
    ['text piped into sh after base64', `echo ${Buffer.from('rm -rf "$HOME" ../outside').toString('base64')} | base64 -d | sh`],
  ];

  it.each(attacks)('%s: every canary survives', async (_name, command) => {
    const result = await runner().run(command);
    expect(result.timedOut).toBe(false);
    expect(canariesNow()).toEqual(canaries);
  });

  it('credentials and the data directory cannot even be read', async () => {
    const result = await runner().run(`cat ~/.ssh/id_ed25519 ~/.aws/credentials ~/.netrc; ls -a ~/.ssh "$DATA_DIR"; grep -r canary ~ "$DATA_DIR" 2>&1`);
    expect(result.output).not.toContain(SECRET);
    expect(result.output).not.toContain('aws canary');
    expect(result.output).not.toContain('password canary');
    expect(result.output).not.toContain('tandem token canary');
    // Ordinary files are readable: the sandbox hides credentials, not the whole disk.
    expect(result.output).toContain('home canary');
  });

  it('no privilege: su fails, nothing is writable under /etc or /proc/sys, no block devices, no capabilities', async () => {
    const marker = `tandem-sbx-${process.pid}-${Date.now()}`;
    const result = await runner().run(
      `su root -c "touch /etc/${marker}" </dev/null; echo "su=$?"; sudo true; echo "sudo=$?"; echo x > /etc/${marker}; echo "etc=$?"; ` +
        `echo "block=$(find /dev -type b | wc -l)"; grep CapEff /proc/self/status; mount -o remount,rw / 2>/dev/null; echo "mount=$?"; ` +
        // Writes the current value back: harmless even if the sandbox failed to stop it.
        `v=$(cat /proc/sys/kernel/domainname); printf '%s\\n' "$v" > /proc/sys/kernel/domainname; echo "sysctl=$?"; hostname "$(hostname)" 2>/dev/null; echo "hostname=$?"`,
    );
    try {
      expect(result.output).toMatch(/su=[1-9]/);
      expect(result.output).toMatch(/sudo=[1-9]/);
      expect(result.output).toMatch(/etc=[1-9]/);
      expect(result.output).toContain('block=0');
      expect(result.output).toMatch(/CapEff:\s+0+\s/);
      expect(result.output).toMatch(/mount=[1-9]/);
      expect(result.output).toMatch(/sysctl=[1-9]/);
      expect(result.output).toMatch(/hostname=[1-9]/);
      expect(existsSync(`/etc/${marker}`)).toBe(false);
    } finally {
      rmSync(`/etc/${marker}`, { force: true });
    }
  });

  it('writes inside the workspace and the granted directory work; a grant made later counts from the next command', async () => {
    roots = [ws];
    const later = join(root, 'granted-later');
    mkdirSync(later, { recursive: true });
    const r = runner();
    const first = await r.run(`echo one > made-here.txt && echo two > ${JSON.stringify(join(later, 'x.txt'))}; echo "rc=$?"`);
    expect(readFileSync(join(ws, 'made-here.txt'), 'utf8')).toBe('one\n');
    expect(first.output).toContain('rc=1');
    expect(existsSync(join(later, 'x.txt'))).toBe(false);
    roots = [ws, granted, later];
    const second = await r.run(`echo two > ${JSON.stringify(join(later, 'x.txt'))} && echo three > ${JSON.stringify(join(granted, 'y.txt'))}; echo "rc=$?"`);
    expect(second.output).toContain('rc=0');
    expect(readFileSync(join(later, 'x.txt'), 'utf8')).toBe('two\n');
    expect(readFileSync(join(granted, 'y.txt'), 'utf8')).toBe('three\n');
  });

  it('/tmp is private: what a command writes there is gone, and it sees none of the host /tmp', async () => {
    const name = `tandem-private-${process.pid}-${Date.now()}`;
    const hostFile = join(tmpdir(), `${name}-host`);
    writeFileSync(hostFile, 'host');
    try {
      const result = await runner().run(`echo inside > /tmp/${name}-inside && echo "wrote=$?"; ls /tmp | grep -c ${name}-host`);
      expect(result.output).toContain('wrote=0');
      expect(result.output.trim().split(/\s+/).pop()).toBe('0');
      expect(existsSync(join(tmpdir(), `${name}-inside`))).toBe(false);
    } finally {
      rmSync(hostFile, { force: true });
    }
  });

  describe('processes and network', () => {
    let listener: Server;
    let port: number;
    let connections = 0;
    let hostSleep: ChildProcess;
    beforeAll(async () => {
      listener = createServer((socket) => {
        socket.on('error', () => undefined);
        connections++;
        socket.end('hello\n');
      });
      await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
      port = (listener.address() as { port: number }).port;
      hostSleep = spawn('sleep', ['600'], { stdio: 'ignore' });
    });
    afterAll(async () => {
      hostSleep.kill('SIGKILL');
      await new Promise<void>((resolve) => listener.close(() => resolve()));
    });

    it('sees only its own PID namespace and cannot signal host processes', async () => {
      const result = await runner().run(`kill -9 ${hostSleep.pid}; echo "kill=$?"; ls /proc | grep -c '^[0-9]'`);
      expect(result.output).toMatch(/kill=[1-9]/);
      expect(Number(result.output.trim().split(/\s+/).pop())).toBeLessThan(10);
      expect(procStat(hostSleep.pid!)?.state).not.toBe('Z');
      expect(procStat(hostSleep.pid!)).toBeDefined();
    });

    it('a direct connect reaches nothing, with or without network; through the proxy an allowed host answers', async () => {
      const probe = `exec 3<>/dev/tcp/127.0.0.1/${port} && echo connected || echo refused`;
      const allowAll = { decide: async () => ({ allow: true, reason: 'test' }) };
      const before = connections;
      for (const run of [runner(false), runner(true, { connections: allowAll })]) {
        const direct = await run.run(probe);
        expect(direct.output).toContain('refused');
        expect(direct.output).not.toContain('connected');
      }
      expect(connections).toBe(before);
      // The same host through the proxy the sandbox's variables name (a CONNECT tunnel by hand).
      const tunnel = `exec 3<>/dev/tcp/127.0.0.1/3128 && printf 'CONNECT 127.0.0.1:${port} HTTP/1.1\\r\\n\\r\\n' >&3 && head -c 400 <&3; echo; echo "proxy=$HTTPS_PROXY"`;
      const through = await runner(true, { connections: allowAll }).run(tunnel);
      expect(through.output).toContain('200 Connection Established');
      expect(through.output).toContain('hello');
      expect(through.output).toContain('proxy=http://127.0.0.1:3128');
      expect(connections).toBe(before + 1);
      // The server's own port: refused before anyone is asked, whatever the decision would be.
      const own = await runner(true, { connections: allowAll, serverPorts: () => [port] }).run(tunnel);
      expect(own.output).toContain('403');
      expect(own.output).toContain('the Tandem server that runs this command');
      expect(connections).toBe(before + 1);
    });
  });

  it('daemon sockets are covered: a read-only mount alone would still let a command connect', async () => {
    const runDir = join(root, 'run', 'daemon');
    mkdirSync(runDir, { recursive: true });
    const socketPath = join(runDir, 'bus.sock');
    let accepted = 0;
    const daemon = createServer((socket) => {
      socket.on('error', () => undefined);
      accepted++;
      socket.end('root shell for you\n');
    });
    await new Promise<void>((resolve) => daemon.listen(socketPath, resolve));
    try {
      const connect = `${PYTHON} -c "import socket; s = socket.socket(socket.AF_UNIX); s.connect('${socketPath}'); print('CONNECTED', s.recv(64))" 2>&1 || echo BLOCKED`;
      const make = (scan: () => string[]) => {
        const sandbox = testSandbox({ home, dataDir: data, socketScan: scan }).wrapperFor(() => roots)!;
        const pty = new PtyCommandRunner({ logDir: join(root, 'logs'), sandbox });
        return pty.run({
          command: connect,
          cwd: ws,
          timeoutMs: 60_000,
          signal: new AbortController().signal,
          callId: `c${++calls}`,
          sessionId: 's1',
          onData: () => undefined,
        });
      };
      const covered = await make(() => systemSockets([join(root, 'run')]));
      expect(covered.output).toContain('BLOCKED');
      expect(accepted).toBe(0);
      // Control: uncovered, the same connect goes through the read-only file system.
      const uncovered = await make(() => []);
      expect(uncovered.output).toContain('CONNECTED');
    } finally {
      await new Promise<void>((resolve) => daemon.close(() => resolve()));
    }
  });

  it('a workspace-local delete still works (the sandbox is no reason to refuse ordinary work)', async () => {
    mkdirSync(join(ws, 'build', 'deep'), { recursive: true });
    writeFileSync(join(ws, 'build', 'deep', 'a.o'), 'x');
    const result = await runner().run('rm -rf build && find . -name "*.tmp" -delete && echo done');
    expect(result.exitCode).toBe(0);
    expect(existsSync(join(ws, 'build'))).toBe(false);
    expect(readdirSync(ws)).not.toContain('build');
    expect(statSync(ws).isDirectory()).toBe(true);
  });
});

describe('OS sandbox control: the same attack without the sandbox', () => {
  it('really destroys a throwaway HOME (so the suite above tests the sandbox, not a harmless command)', async () => {
    const base = existsSync('/var/tmp') ? '/var/tmp' : tmpdir();
    const victim = mkdtempSync(join(base, 'tandem-unconfined-victim-'));
    try {
      mkdirSync(join(victim, 'home', '.ssh'), { recursive: true });
      writeFileSync(join(victim, 'home', '.ssh', 'id_ed25519'), SECRET);
      const pty = new PtyCommandRunner({ logDir: join(victim, 'logs') });
      const result = await pty.run({
        command: 'find "$HOME" -delete; echo done',
        cwd: victim,
        env: { HOME: join(victim, 'home') },
        timeoutMs: 60_000,
        signal: new AbortController().signal,
        callId: 'control',
        sessionId: 's1',
        onData: () => undefined,
      });
      expect(result.output).toContain('done');
      expect(existsSync(join(victim, 'home'))).toBe(false);
    } finally {
      rmSync(victim, { recursive: true, force: true });
    }
  });
});
