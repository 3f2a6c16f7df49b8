import type { SessionCheckpoints } from '../checkpoints/session-checkpoints.js';
import type { EventBody, SessionEvent } from '@tandem/shared';
import type { AgentDefinition, CommandRunner, EngineEvent, ExternalAgentRun, ToolGate, ToolServices, TurnContext, TurnOptions } from '@tandem/core';
import type { SessionMeta } from './session-index.js';

/** The runner a session uses; the pty runner also accepts typed input and can kill everything. */
export interface SessionRunner extends CommandRunner {
  write?(callId: string, data: string): boolean;
  /** Resolves once a command with this call id is running (the pty exists and takes input). */
  whenRunning?(callId: string, signal?: AbortSignal): Promise<void>;
  killAll?(): Promise<void>;
}

/** What a session offers the parts the host builds for it, before the session itself exists. */
export interface SessionHost {
  readonly id: string;
  readonly meta: SessionMeta;
  /** `<dataDir>/sessions/<id>`. */
  readonly dir: string;
  /** Where the pty runner keeps each command's output. */
  readonly commandLogDir: string;
  /** The session's one way for events (stamp → log → fold → notify). */
  emit(body: EventBody | EngineEvent): SessionEvent;
  /** Where this session's commands may write: the workspace and every granted directory. */
  writableRoots(): string[];
  /** Protected locations a driver granted write for this session (`sandbox:grant { write: true }`). */
  writeGrants?(): string[];
  /** The session's own turn running now, if any. */
  currentTurnId?(): string | undefined;
  /** Runs `fn` when the session closes, after the turn stopped and before the log closes. */
  onClose(fn: () => Promise<void>): void;
}

/** Changes one turn's options (memory frozen for the turn, skills of the moment, MCP tools). */
export type TurnStep = (options: TurnOptions) => TurnOptions | Promise<TurnOptions>;

/**
 * What the host adds to a session, built once (asynchronously) when the session opens: what
 * commands run on, the checks every call passes, the services tools reach, the context
 * accounting, and the steps that shape each turn.
 */
export interface HostEnvironment {
  runner: SessionRunner;
  gate?: ToolGate | undefined;
  services: ToolServices;
  context?: TurnContext | undefined;
  /** Another agent's own context accounting: per agent name, or new for a worker run (`agent` undefined). */
  agentContext?: ((agent: string | undefined, model: string) => Promise<TurnContext | undefined>) | undefined;
  /** The OS sandbox around the session's commands, as SessionInfo.sandbox shows it. */
  sandbox?: string | undefined;
  /** The session's checkpoints (undo, diff); undefined when they are off. */
  checkpoints?: SessionCheckpoints | undefined;
  /** Why checkpoints are off, when they are. */
  checkpointsOff?: string | undefined;
  /** Applied in order to every turn's options. */
  turnSteps: TurnStep[];
  /** Shapes a turn of an agent with `evolve: true` (its private skills and profile). */
  evolvingTurn?: ((options: TurnOptions, definition: AgentDefinition) => TurnOptions) | undefined;
  /** Opens the reverse bridge (`TANDEM_BRIDGE`) for each run of an external agent. */
  bridge?: ExternalAgentRun['bridge'] | undefined;
}

export type HostEnvironmentFactory = (session: SessionHost) => Promise<HostEnvironment>;
