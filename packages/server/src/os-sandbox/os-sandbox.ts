import { mkdirSync, mkdtempSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { startCommandProxy } from '../network/command-proxy.js';
import type { ConnectionRequest, NetworkMode, NetworkVerdict } from '../network/network-decider.js';
import { bwrapArgs, HIDDEN_SYSTEM_LOCATIONS } from './bwrap-args.js';
import { findOnPath, probeBwrapOnce, type ProbeResult } from './bwrap-probe.js';
import { planMounts } from './mount-plan.js';
import { Placeholders, protectedMounts } from './protected-mounts.js';
import { proxyEnvironment, relayLauncher, SANDBOX_PROXY_SOCKET } from './proxy-relay.js';
import { systemSockets } from './system-sockets.js';
import { excludesEnvironment, placeholderExcludes, SANDBOX_GIT_EXCLUDES } from './git-excludes.js';

/** What one command asks the sandbox to run. */
export interface CommandLaunch {
  file: string;
  args: readonly string[];
  cwd: string;
  /** The command line as the model wrote it (shown in a network question). */
  command?: string;
  /** The command's end (cancel, timeout, stop): a network question still open is given up. */
  signal?: AbortSignal;
}

/** The launch inside the sandbox, with what to add to the environment and what to undo after. */
export interface WrappedLaunch {
  file: string;
  args: string[];
  /** Variables the sandbox sets (the proxy's). */
  env: Record<string, string>;
  /** Call once the command has exited: closes its proxy, removes placeholders no command needs. */
  release(): Promise<void>;
  /** Sentences for the tool result: connections refused, and why. */
  notes(): string[];
}

/** Turns "run this program here" into "run it inside the sandbox". */
export interface CommandWrapper {
  /** What the commands run in, e.g. `bubblewrap (network: ask)`. */
  readonly name: string;
  wrap(run: CommandLaunch): Promise<WrappedLaunch>;
}

/** config.json `commandSandbox` (see README): all optional. */
export interface OsSandboxSettings {
  /** false runs commands without the OS sandbox (the blacklist still applies). Default true. */
  enabled?: boolean;
  /** false gives commands no network at all, not even through the proxy. Default true. */
  network?: boolean;
  /** More directories commands may write (e.g. a package cache), beside the workspace and grants. */
  writable?: string[];
}

export interface OsSandboxOptions {
  settings?: OsSandboxSettings;
  /** Whose credential directories are hidden. */
  home: string;
  /** Tandem's data directory: hidden from commands. */
  dataDir: string;
  /** Lists the daemon sockets to cover (default: those under /run); tests pass their own. */
  socketScan?: () => string[];
  /** Replaces the start-up probe (tests). */
  probe?: (network: boolean) => ProbeResult;
  /** config.json `sandbox.network`, for the status line (default `ask`). */
  networkMode?: () => NetworkMode;
  /** Where socat is (default: looked up on $PATH); null: there is none. */
  socat?: string | null;
}

/** What one session gives its wrapper, read at every command. */
export interface SandboxSession {
  /** Directories the command may write (the workspace, the granted directories). */
  writableRoots(): readonly string[];
  /** Protected locations a driver granted write for this session. */
  writeGrants?(): readonly string[];
  /** Decides each connection of the session's commands; absent: commands get no network. */
  connections?: { decide(request: ConnectionRequest, signal: AbortSignal): Promise<NetworkVerdict> };
  /** The ports of the server running the commands: never reachable from them. */
  serverPorts?(): readonly number[];
}

const UNENFORCED = 'network limits, protected paths and the block on the server port are not enforced';

/**
 * The OS layer under every command (requirements P3/P4 made real by the kernel): decided once at start
 * by probing bubblewrap, then the same for every session. Every command gets its own network
 * namespace: with socat, its only way out is a proxy of Tandem's for that command (see
 * `command-proxy.ts`); without, it has no network. When bubblewrap cannot run, it says why, and
 * commands run as before with only the blacklist in front of them.
 */
export class OsSandbox {
  private readonly state: ProbeResult | { ok: false; reason: string };
  private readonly network: boolean;
  private readonly socat: string | null;
  private readonly placeholders = new Placeholders();
  private runtime: string | undefined;

  constructor(private readonly options: OsSandboxOptions) {
    const settings = options.settings ?? {};
    this.network = settings.network ?? true;
    this.socat = options.socat === undefined ? (findOnPath('socat', process.env.PATH ?? '') ?? null) : options.socat;
    if (settings.enabled === false) this.state = { ok: false, reason: 'turned off in config.json (commandSandbox.enabled: false)' };
    // Commands always get their own network namespace: the probe checks it can be made.
    else this.state = (options.probe ?? ((network) => probeBwrapOnce({ network })))(false);
  }

  get active(): boolean {
    return this.state.ok;
  }

  /** Whether commands reach the network through the proxy (bubblewrap on, network on, socat there). */
  get proxied(): boolean {
    return this.state.ok && this.network && this.socat !== null;
  }

  /**
   * `bubblewrap (network: ask)`, `bubblewrap (no network)`, or `off: <reason> — …not enforced`
   * (SessionInfo.sandbox, server:status).
   */
  describe(): string {
    if (!this.state.ok) return `off: ${this.state.reason} — ${UNENFORCED}`;
    if (!this.network) return 'bubblewrap (no network)';
    if (this.socat === null) return 'bubblewrap (no network: socat not found; install socat to give commands network through Tandem’s proxy)';
    return `bubblewrap (network: ${this.options.networkMode?.() ?? 'ask'})`;
  }

  /**
   * The wrapper for one session's commands (a function giving the writable roots, or the whole
   * session). Everything is asked at every command, so a grant counts from the next command on.
   */
  wrapperFor(session: SandboxSession | (() => readonly string[])): CommandWrapper | undefined {
    const state = this.state;
    if (!state.ok) return undefined;
    const from: SandboxSession = typeof session === 'function' ? { writableRoots: session } : session;
    const extra = (this.options.settings?.writable ?? []).map((dir) => expandHome(dir, this.options.home));
    const viaProxy = this.proxied && from.connections !== undefined;
    return {
      name: this.describe(),
      wrap: async (run) => {
        const roots = from.writableRoots();
        const mounts = planMounts({
          writable: [...roots, ...extra],
          home: this.options.home,
          hidden: [this.options.dataDir, ...HIDDEN_SYSTEM_LOCATIONS, ...(this.options.socketScan ?? systemSockets)()],
        });
        // The session's own roots only: a configured cache directory gets no placeholders.
        const sessionRoots = new Set(roots.flatMap(realDirectory));
        const guarded = protectedMounts(
          mounts.filter((m) => m.kind === 'writable' && sessionRoots.has(m.path)).map((m) => m.path),
          from.writeGrants?.() ?? [],
          this.placeholders,
        );
        const runtime = this.runtimeDir();
        const id = randomBytes(6).toString('hex');
        const placeholderPaths = guarded.filter((m) => m.kind === 'placeholder').map((m) => m.path);
        const releasePlaceholders = this.placeholders.acquire(placeholderPaths);
        const binds: string[] = [];
        for (const m of guarded) {
          const source = m.kind === 'readonly' ? m.path : path.join(runtime, m.dir ? 'empty-dir' : 'empty-file');
          binds.push('--ro-bind', source, m.path);
        }
        let excludesFile: string | undefined;
        if (placeholderPaths.length > 0) {
          excludesFile = path.join(runtime, `${id}.exclude`);
          writeFileSync(excludesFile, placeholderExcludes(placeholderPaths, [...sessionRoots], this.options.home), { mode: 0o444 });
          binds.push('--ro-bind', excludesFile, SANDBOX_GIT_EXCLUDES);
        }
        const releaseAll = async () => {
          releasePlaceholders();
          if (excludesFile) rmSync(excludesFile, { force: true });
        };
        let proxy: Awaited<ReturnType<typeof startCommandProxy>> | undefined;
        let launch: { file: string; args: readonly string[] } = run;
        if (viaProxy) {
          const socketPath = path.join(runtime, `${id}.sock`);
          try {
            proxy = await startCommandProxy({
              socketPath,
              command: run.command ?? [run.file, ...run.args].join(' '),
              decide: (request, signal) => from.connections!.decide(request, signal),
              serverPorts: () => from.serverPorts?.() ?? [],
              ...(run.signal ? { signal: run.signal } : {}),
            });
          } catch (err) {
            await releaseAll();
            throw err;
          }
          binds.push('--bind', socketPath, SANDBOX_PROXY_SOCKET);
          launch = relayLauncher(this.socat!, run);
        }
        const args = bwrapArgs({ cwd: run.cwd, mounts, network: false, file: launch.file, args: launch.args, extra: binds });
        return {
          file: state.bwrap,
          args,
          env: { ...(viaProxy ? proxyEnvironment() : {}), ...(excludesFile ? excludesEnvironment(process.env) : {}) },
          notes: () => (proxy ? proxy.refusals() : []),
          release: async () => {
            await releaseAll();
            await proxy?.close();
          },
        };
      },
    };
  }

  /** Tandem's own directory for proxy sockets and the empty placeholders (0700, gone at exit). */
  private runtimeDir(): string {
    if (this.runtime) return this.runtime;
    const dir = mkdtempSync(path.join(tmpdir(), 'tandem-sbx-'));
    mkdirSync(path.join(dir, 'empty-dir'), { mode: 0o555 });
    writeFileSync(path.join(dir, 'empty-file'), '', { mode: 0o444 });
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    this.runtime = dir;
    return dir;
  }
}

function expandHome(dir: string, home: string): string {
  if (dir === '~') return home;
  if (dir.startsWith('~/')) return path.join(home, dir.slice(2));
  return path.resolve(dir);
}

function realDirectory(dir: string): string[] {
  try {
    const real = realpathSync(path.resolve(dir));
    return statSync(real).isDirectory() ? [real] : [];
  } catch {
    return [];
  }
}
