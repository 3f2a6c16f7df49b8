import type { Logger } from 'pino';
import type { Socket } from 'socket.io';
import type { AnyTool, ToolGate, TurnLimits } from '@tandem/core';
import type { Clock } from '@tandem/ai';
import type { Tokens } from './auth.js';
import type { HandshakeLockoutOptions } from './auth/handshake-lockout.js';
import type { ClusterOptions } from './cluster/cluster-options.js';
import type { ServerSettings } from './config/server-settings.js';
import type { CommandLimiter, HandlerMap } from './handlers/dispatch.js';
import type { OsSandbox } from './os-sandbox/os-sandbox.js';
import type { GuardsHostOptions } from './permissions/guards-host.js';
import type { ModelFactory, SessionEngine } from './sessions/engine.js';
import type { SessionHost, SessionRunner, TurnStep } from './sessions/session-environment.js';
import type { SessionHooks } from './sessions/session.js';

/** What a host chooses when it runs a Tandem server. */
export interface ApplicationDeps {
  dataDir: string;
  tokens: Tokens;
  /** Environment for providers and defaults; default process.env. */
  env?: NodeJS.ProcessEnv;
  logger?: Logger;
  clock?: Clock;
  defaults?: {
    /** Workspace of a session created without `cwd`; default the server's cwd. */
    cwd?: string;
    /** A new session's model when none is named: default config.json's, TANDEM_MODEL, else openai/gpt-4.1-mini. */
    model?: string;
    /** The user's home (skills, agents, the path sandbox); default os.homedir(). */
    home?: string;
  };
  /** Serve HTTPS and WSS with this certificate and key (PEM); absent: plain HTTP. */
  tls?: { cert: string | Buffer; key: string | Buffer };
  /** Join a cluster of nodes through Redis (`tandem serve --redis URL`); absent: a single node. */
  cluster?: ClusterOptions;
  /** Parts a test or an embedder replaces; a normal host passes none. */
  seams?: ApplicationSeams;
}

/** Replaceable parts of the server, each with a working default. */
export interface ApplicationSeams {
  /** Server limits; default `<dataDir>/config.json` (see README). */
  settings?: ServerSettings;
  /** spec → ModelClient; default core's resolveModelClient with `env` and `<dataDir>/config.json`. */
  modelFactory?: ModelFactory;
  /** Replaces single engine parts (tests: a scripted loop). */
  engine?: Partial<SessionEngine>;
  /** The built-in tools of every session; default core's built-in and memory tools. */
  tools?: () => AnyTool[];
  /** What a session's commands run on; default a pty runner inside the OS sandbox. */
  runner?: (session: SessionHost) => SessionRunner;
  /** The checks between validation and execution; default the guards' permission gate. */
  gate?: (session: SessionHost) => ToolGate;
  /** Told about every persisted event and tool result (after the guards' audit). */
  hooks?: SessionHooks;
  /** One more step over every turn's options, after context, memory, skills and MCP. */
  turnStep?: TurnStep;
  /** Loop limits for every turn (requirements A5 defaults: 40 iterations, 120 s per tool). */
  limits?: Partial<TurnLimits>;
  /** On close, how long a running turn gets to stop before it is recorded as interrupted anyway (default 5 s). */
  shutdownGraceMs?: number;
  /** Extra or replacing command handlers (permission:respond, audit:query, session:new, ...). */
  handlers?: HandlerMap;
  /** Replaces the per-connection flood control of the guards (20 commands/s, burst 40). */
  commandLimiter?: (socket: Socket) => CommandLimiter;
  /**
   * The guards (permission gate, per-session call rate limit, audit log, per-connection command
   * limiter) are on unless this is `'off'` — only for tests of unrelated features. An object
   * tunes them (over config.json's values).
   */
  guards?: 'off' | Partial<Omit<GuardsHostOptions, 'dataDir' | 'clock'>>;
  /** MCP tool schemas past this many tokens are loaded on demand (default: 10 % of the model's window). */
  mcpToolSchemaBudgetTokens?: number;
  /** Tunes the lockout after refused handshakes (default: 20 within 60 s lock the address for 60 s). */
  handshakeLockout?: Omit<HandshakeLockoutOptions, 'clock' | 'onLocked'>;
  /** The OS sandbox under every command; default probed once at start from config.json's `commandSandbox`. */
  osSandbox?: OsSandbox;
}
