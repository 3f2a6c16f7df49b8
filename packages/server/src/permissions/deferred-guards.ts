import type { SessionEvent } from '@tandem/shared';
import type { ToolGate } from '@tandem/core';
import type { Handler, HandlerMap } from '../handlers/dispatch.js';
import type { ConnectionLimiter } from '../rate-limit/connection-limiter.js';
import { openGuardsHost, type GuardedSession, type GuardsHost, type GuardsHostOptions } from './guards-host.js';

const GUARD_COMMANDS = ['permission:respond', 'audit:query', 'permissions:list', 'permissions:revoke'] as const;

/**
 * The guards host for `createApplication`, which is synchronous while opening the permission
 * store and audit log is not: the application awaits `open()` in its `ready` step (before any
 * session is loaded or any socket connects) and wires these stand-ins into its seams now.
 * Using one before `open()` finished throws, so no session can ever run unguarded.
 */
export class DeferredGuards {
  private host: GuardsHost | undefined;
  private opening: Promise<GuardsHost> | undefined;

  constructor(private readonly options: GuardsHostOptions) {}

  open(): Promise<GuardsHost> {
    this.opening ??= openGuardsHost(this.options).then((host) => (this.host = host));
    return this.opening;
  }

  get(): GuardsHost {
    if (!this.host) throw new Error('the permission guards are not open yet; wait for the application to be ready');
    return this.host;
  }

  gateFactory = (session: GuardedSession): ToolGate => this.get().gateFactory(session);

  onEvent = (session: GuardedSession, event: SessionEvent): void => {
    this.host?.hooks.onEvent(session, event);
  };

  commandLimiterFactory = (): ConnectionLimiter => this.get().commandLimiterFactory();

  handlers(): HandlerMap {
    const map: Record<string, Handler<never>> = {};
    for (const name of GUARD_COMMANDS) {
      map[name] = ((payload: never, ctx: never) => (this.get().handlers[name] as Handler<never>)(payload, ctx)) as Handler<never>;
    }
    return map as HandlerMap;
  }

  async close(): Promise<void> {
    const host = await this.opening?.catch(() => undefined);
    await host?.close();
  }
}
