import path from 'node:path';
import { bwrapArgs, HIDDEN_SYSTEM_LOCATIONS } from './bwrap-args.js';
import { probeBwrapOnce, type ProbeResult } from './bwrap-probe.js';
import { planMounts } from './mount-plan.js';
import { systemSockets } from './system-sockets.js';

/** Turns "run this program here" into "run it inside the sandbox". */
export interface CommandWrapper {
  /** What the commands run in, e.g. `bubblewrap (no network)`. */
  readonly name: string;
  wrap(run: { file: string; args: readonly string[]; cwd: string }): { file: string; args: string[] };
}

/** config.json `commandSandbox` (see README): all optional. */
export interface OsSandboxSettings {
  /** false runs commands without the OS sandbox (the blacklist still applies). Default true. */
  enabled?: boolean;
  /** false gives commands no network (`--unshare-net`). Default true. */
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
  /** Folders of the data directory commands see again, read-only: package shims, packages, bridge sockets. */
  visible?: readonly string[];
  /** Lists the daemon sockets to cover (default: those under /run); tests pass their own. */
  socketScan?: () => string[];
  /** Replaces the start-up probe (tests). */
  probe?: (network: boolean) => ProbeResult;
}

/**
 * The OS layer under every command (requirements P3/P4 made real by the kernel): decided once at start
 * by probing bubblewrap, then the same for every session. When it cannot run, it says why, and
 * commands run as before with only the blacklist in front of them.
 */
export class OsSandbox {
  private readonly state: ProbeResult | { ok: false; reason: string };
  private readonly network: boolean;

  constructor(private readonly options: OsSandboxOptions) {
    const settings = options.settings ?? {};
    this.network = settings.network ?? true;
    if (settings.enabled === false) this.state = { ok: false, reason: 'turned off in config.json (commandSandbox.enabled: false)' };
    else this.state = (options.probe ?? ((network) => probeBwrapOnce({ network })))(this.network);
  }

  get active(): boolean {
    return this.state.ok;
  }

  /** `bubblewrap`, `bubblewrap (no network)`, or `off: <reason>` (SessionInfo.sandbox, server:status). */
  describe(): string {
    if (!this.state.ok) return `off: ${this.state.reason}`;
    return this.network ? 'bubblewrap' : 'bubblewrap (no network)';
  }

  /**
   * The wrapper for one session's commands. `writableRoots` is asked at every command, so a
   * directory granted during the session is writable from the next command on.
   */
  wrapperFor(writableRoots: () => readonly string[]): CommandWrapper | undefined {
    const state = this.state;
    if (!state.ok) return undefined;
    const extra = (this.options.settings?.writable ?? []).map((dir) => expandHome(dir, this.options.home));
    return {
      name: this.describe(),
      wrap: ({ file, args, cwd }) => {
        const mounts = planMounts({
          writable: [...writableRoots(), ...extra],
          home: this.options.home,
          hidden: [this.options.dataDir, ...HIDDEN_SYSTEM_LOCATIONS, ...(this.options.socketScan ?? systemSockets)()],
          ...(this.options.visible ? { visible: this.options.visible } : {}),
        });
        return { file: state.bwrap, args: bwrapArgs({ cwd, mounts, network: this.network, file, args }) };
      },
    };
  }
}

function expandHome(dir: string, home: string): string {
  if (dir === '~') return home;
  if (dir.startsWith('~/')) return path.join(home, dir.slice(2));
  return path.resolve(dir);
}
