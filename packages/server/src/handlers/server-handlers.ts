import { readFileSync } from 'node:fs';
import type { Clock, ProvidersConfig } from '@tandem/ai';
import { providerEnvDigest, providersWithKey } from '../serve/provider-env.js';
import type { SessionManager } from '../sessions/session-manager.js';
import type { HandlerMap } from './dispatch.js';

export interface ServerHandlersDeps {
  sessions: SessionManager;
  /** The environment the server was started with. */
  env: NodeJS.ProcessEnv;
  /** The providers part of config.json as it is now. */
  providersConfig(): ProvidersConfig;
  clock: Clock;
  /** When the server was built (ms on `clock`). */
  startedAtMs: number;
  /** The OS sandbox under every command, decided at start: `bubblewrap`, `bubblewrap (no network)`, `off: <reason>`. */
  sandbox?: () => string;
}

/** `server:status`: what `tandem status` shows (never a key or another variable's value). */
export function serverHandlers(deps: ServerHandlersDeps): HandlerMap {
  const digest = providerEnvDigest(deps.env);
  return {
    'server:status': () => {
      const sessions = deps.sessions.all().map((session) => session.info());
      const sandbox = deps.sandbox?.() ?? sessions.find((session) => session.sandbox !== undefined)?.sandbox;
      return {
        version: SERVER_VERSION,
        pid: process.pid,
        startedAt: new Date(deps.startedAtMs).toISOString(),
        uptimeMs: Math.max(0, deps.clock.now() - deps.startedAtMs),
        sessions: sessions.length,
        running: sessions.filter((session) => session.status !== 'idle').length,
        providers: providersWithKey(deps.env, deps.providersConfig()),
        envDigest: digest,
        ...(sandbox !== undefined ? { sandbox } : {}),
      };
    },
  };
}

/** @tandem/server's version (its package.json sits two levels up from src/handlers and dist/handlers). */
export const SERVER_VERSION: string = (() => {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: unknown };
    return typeof pkg.version === 'string' ? pkg.version : 'unknown';
  } catch {
    return 'unknown';
  }
})();
