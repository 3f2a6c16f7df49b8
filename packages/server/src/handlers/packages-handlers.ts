import { existsSync } from 'node:fs';
import type { InstalledPackages } from '../packages/installed-packages.js';
import type { HandlerMap } from './dispatch.js';

/** `packages:list`: the external packages of the server's data directory (the TUI's extensions panel). */
export function packagesHandlers(packages: InstalledPackages): HandlerMap {
  return {
    'packages:list': () => ({
      packages: packages.list().map((p) => ({
        name: p.name,
        source: p.source,
        commit: p.commit,
        kind: p.kind,
        bins: p.bins.map((b) => b.name),
        skills: p.skills,
        status: existsSync(packages.registry.dirOf(p.name)) ? ('ok' as const) : ('missing' as const),
        ...(p.install ? { install: { command: p.install.command, status: p.install.status, ...(p.install.reason ? { reason: p.install.reason } : {}) } } : {}),
      })),
      ...(packages.registry.problem ? { problem: packages.registry.problem } : {}),
    }),
  };
}
