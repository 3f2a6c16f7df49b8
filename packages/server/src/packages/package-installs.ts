import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import type { Logger } from 'pino';
import { runHostCall, type CommandRunner, type EngineEvent, type TurnOptions } from '@tandem/core';
import type { Clock } from '@tandem/ai';
import type { InstalledPackages } from './installed-packages.js';
import { PACKAGE_INSTALL, packageInstallTool } from './package-install-tool.js';

/** What the install step needs of a session. */
export interface InstallingSession {
  readonly id: string;
  /** Where the install's output log is kept. */
  readonly commandLogDir: string;
  emit(body: EngineEvent): unknown;
}

export interface PackageInstallsDeps {
  packages: InstalledPackages;
  /** The environment commands get (PATH with the shims, config.json `commandEnv`). */
  env(): Record<string, string>;
  clock: Clock;
  logger: Logger;
}

/**
 * Dependency installs of external packages (ARCHITECTURE "External packages"): before a turn's
 * first model request, each package whose declared install was never decided is a
 * `package_install` call through the session's gate — the permission request asks once per
 * package, the answer is remembered in packages.json (`done`, `failed`, `declined`); a question
 * nobody answered asks again at a later turn. One package is installed by one session at a time.
 */
export class PackageInstalls {
  private readonly running = new Set<string>();

  constructor(private readonly deps: PackageInstallsDeps) {}

  /**
   * `runnerFor(dir)`: a runner of the session whose commands may write only `dir` (the OS sandbox
   * around it, the session's network decisions, the server's environment policy).
   */
  async extendTurn(session: InstallingSession, options: TurnOptions, runnerFor: (dir: string) => CommandRunner): Promise<TurnOptions> {
    const pending = this.deps.packages.list().filter((p) => p.install?.status === 'pending' && !this.running.has(p.name));
    for (const entry of pending) {
      if (options.control.signal.aborted) break;
      const dir = this.deps.packages.registry.dirOf(entry.name);
      if (!existsSync(dir) || !entry.install) continue;
      this.running.add(entry.name);
      try {
        await this.install(session, options, entry.name, entry.install.command, dir, runnerFor);
      } finally {
        this.running.delete(entry.name);
      }
    }
    return options;
  }

  private async install(
    session: InstallingSession,
    options: TurnOptions,
    name: string,
    command: string,
    dir: string,
    runnerFor: (dir: string) => CommandRunner,
  ): Promise<void> {
    const tool = packageInstallTool({ dirOf: () => dir, runnerFor, env: this.deps.env });
    const result = await runHostCall({
      turnId: options.turnId,
      call: { id: `package-install-${randomUUID()}`, name: PACKAGE_INSTALL, args: { package: name, command } },
      tools: [tool],
      environment: options.environment,
      signal: options.control.signal,
      emit: (event) => void session.emit(event),
    });
    const status =
      result.outcome === 'ok'
        ? 'done'
        : result.outcome === 'error' || result.outcome === 'blocked'
          ? 'failed'
          : result.outcome === 'denied'
            ? 'declined'
            : undefined;
    if (!status) return; // nobody answered, the turn was cancelled, or the mode refused: asked again later
    const at = new Date(this.deps.clock.now()).toISOString();
    const reason = status === 'failed' ? lastLine(result.output) : undefined;
    this.deps.packages.registry.update(name, (entry) =>
      entry.install ? { ...entry, install: { ...entry.install, status, at, decidedBy: `session ${session.id}`, ...(reason ? { reason } : {}) } } : entry,
    );
    this.deps.logger.info({ package: name, status, sessionId: session.id }, `package ${name}: dependency install ${status}`);
  }
}

function lastLine(output: string): string {
  const lines = output.trim().split('\n').filter(Boolean);
  return (lines.at(-1) ?? 'failed').slice(0, 300);
}
