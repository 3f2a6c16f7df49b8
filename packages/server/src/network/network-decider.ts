import { randomUUID } from 'node:crypto';
import type { GateCall, GateVerdict } from '@tandem/core';
import { NETWORK_TOOL } from '@tandem/coding-tools';
import { DEFAULT_ALLOW_HOSTS, hostListed, hostPort, normalizeHost } from './host-patterns.js';

/** config.json `sandbox.network`: ask (default), allow or deny the hosts `allowHosts` does not list. */
export type NetworkMode = 'ask' | 'allow' | 'deny';

export interface NetworkSettings {
  network?: NetworkMode;
  /** Hosts that never ask (default `DEFAULT_ALLOW_HOSTS`). */
  allowHosts?: readonly string[];
}

/** One connection a command wants to make. */
export interface ConnectionRequest {
  host: string;
  port: number;
  /** The command line, shown in the question. */
  command: string;
}

export interface NetworkVerdict {
  allow: boolean;
  /** Why, in a sentence the command's output and the tool result can carry. */
  reason: string;
}

export interface NetworkDeciderOptions {
  settings: () => NetworkSettings;
  /**
   * The session's permission step (the same broker, stored and session decisions and audit as
   * every tool call); undefined when the session has none, and then nobody can be asked.
   */
  ask: ((call: GateCall, signal: AbortSignal) => Promise<GateVerdict>) | undefined;
  /** The turn running now, for the question and its audit record ('' outside a turn). */
  turnId: () => string | undefined;
}

/**
 * Decides a session's connections, by `sandbox.network` and `sandbox.allowHosts`: a listed host
 * passes, then `allow` lets everything through and `deny` nothing, and `ask` puts the question
 * through the session's permission step (`tool: "network"`, `args: { host, port, command }`),
 * where session and stored decisions answer without asking again. The server's own port is
 * refused before any of this (see `command-proxy.ts`).
 */
export class NetworkDecider {
  constructor(private readonly options: NetworkDeciderOptions) {}

  /** The mode in force (for the status line). */
  mode(): NetworkMode {
    return this.options.settings().network ?? 'ask';
  }

  async decide(request: ConnectionRequest, signal: AbortSignal): Promise<NetworkVerdict> {
    const settings = this.options.settings();
    const target = hostPort(request.host, request.port);
    const allowHosts = settings.allowHosts ?? DEFAULT_ALLOW_HOSTS;
    if (hostListed(request.host, request.port, allowHosts)) return { allow: true, reason: `${target} is in sandbox.allowHosts` };
    const mode = settings.network ?? 'ask';
    if (mode === 'allow') return { allow: true, reason: 'sandbox.network is "allow"' };
    if (mode === 'deny') {
      return {
        allow: false,
        reason: `sandbox.network is "deny" in config.json and ${target} is not in sandbox.allowHosts; add it there to let commands reach it`,
      };
    }
    const ask = this.options.ask;
    if (!ask) return { allow: false, reason: `nobody can be asked about ${target} in this session (no permission gate); list it in sandbox.allowHosts` };
    const call: GateCall = {
      turnId: this.options.turnId() ?? '',
      callId: `network-${randomUUID()}`,
      tool: NETWORK_TOOL,
      args: { host: normalizeHost(request.host), port: request.port, command: request.command },
      danger: 'medium',
      readOnly: true,
      kind: 'fetch',
      subject: { host: normalizeHost(request.host), port: request.port },
      summary: `${target} from the command: ${request.command}`,
      preview: () => `Connect to ${target}\nfrom the command: ${request.command}`,
    };
    const verdict = await ask(call, signal);
    if (verdict.allow) return { allow: true, reason: `${target} was allowed` };
    return { allow: false, reason: `${target} was not allowed: ${verdict.reason}` };
  }
}
