import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { AnyTool, DynamicTools, ToolGate } from '@tandem/core';
import type { Clock } from '@tandem/ai';
import { launchFingerprint, launchShown, loadMcpConfig, type McpServerConfig } from './mcp-config.js';
import type { McpApprovals } from './mcp-approvals.js';
import { McpConnection } from './mcp-connection.js';
import { expandLaunch } from './mcp-launch.js';
import { launchWithheld } from './launch-withheld.js';
import type { CommandEnvPolicy } from '../os-sandbox/command-env.js';
import { mcpTool, type KeepImages } from './mcp-tool.js';
import type { McpServerStatus } from './mcp-status.js';

export interface WorkspaceMcpDeps {
  dataDir: string;
  env: NodeJS.ProcessEnv;
  secret(name: string): string | undefined;
  approvals: McpApprovals;
  logger: Logger;
  clock: Clock;
  /** Default 30 s; a server's `startupTimeoutMs` overrides it. */
  startupTimeoutMs?: number;
  /** How long a turn waits for servers still starting before it goes on without them (default 10 s). */
  turnWaitMs?: number;
  /** Keeps the images a tool returned in the calling session's directory. */
  keepImages?: KeepImages;
  /** What a server's launch may not take from the environment (see `launchWithheld`). */
  envPolicy?: CommandEnvPolicy;
}

interface Slot {
  config: McpServerConfig;
  fingerprint: string;
  connection?: McpConnection;
  secrets: string[];
  /** A launch that cannot be expanded (unset variable, missing secret). */
  problem?: string;
  failures: number;
  retryAt: number;
  tools?: { from: unknown; list: AnyTool[] };
}

const BACKOFF_BASE_MS = 1_000;
const BACKOFF_MAX_MS = 5 * 60_000;
export const DEFAULT_STARTUP_TIMEOUT_MS = 30_000;
const DEFAULT_TURN_WAIT_MS = 10_000;

export interface TurnPreparation {
  sessionId: string;
  turnId: string;
  gate: ToolGate | undefined;
  signal: AbortSignal;
}

/**
 * The MCP servers of one workspace (user + project), shared by its sessions: config re-read at
 * each turn, project launches approved through the session's permission gate (fingerprinted),
 * servers started lazily and restarted with backoff, their tools offered per model request.
 */
export class WorkspaceMcp {
  private slots = new Map<string, Slot>();
  private problems: string[] = [];
  /** `name\0fingerprint` → sessions in which a driver refused that launch (not asked again there). */
  private readonly refused = new Map<string, Set<string>>();
  private closed = false;

  constructor(
    readonly workspace: string,
    private readonly deps: WorkspaceMcpDeps,
  ) {
    this.reload();
  }

  /** Re-reads both config files; a server whose launch changed is stopped and will start anew. */
  reload(): void {
    const { servers, problems } = loadMcpConfig(this.deps.dataDir, this.workspace);
    for (const p of problems) if (!this.problems.includes(p)) this.deps.logger.warn({ workspace: this.workspace }, p);
    this.problems = problems;
    const next = new Map<string, Slot>();
    for (const config of servers) {
      const fingerprint = launchFingerprint(config);
      const old = this.slots.get(config.name);
      if (old && old.fingerprint === fingerprint && JSON.stringify(old.config.entry) === JSON.stringify(config.entry)) {
        next.set(config.name, old);
        continue;
      }
      void old?.connection?.close();
      next.set(config.name, { config, fingerprint, secrets: [], failures: 0, retryAt: 0 });
    }
    for (const [name, slot] of this.slots) if (!next.has(name)) void slot.connection?.close();
    this.slots = next;
  }

  /** Problems reading the config files, as sentences. */
  configProblems(): string[] {
    return [...this.problems];
  }

  /**
   * Before a turn's first model request: asks a driver (through the session's gate, as a
   * `permission_request` for `mcp_server`) about each project server whose exact launch is not
   * approved, then starts what may run and waits a little for it, so this turn already has the tools.
   */
  async prepareTurn(turn: TurnPreparation): Promise<void> {
    this.reload();
    for (const slot of this.slots.values()) {
      if (turn.signal.aborted) return;
      if (slot.config.entry.disabled || this.approved(slot) || this.refusedIn(slot, turn.sessionId)) continue;
      await this.askApproval(slot, turn);
    }
    await this.startRunnable(true);
  }

  /** Starts every approved, enabled server that is not running (failed ones once their backoff passed). */
  async startRunnable(wait: boolean): Promise<void> {
    const starting: Promise<void>[] = [];
    for (const slot of this.slots.values()) {
      if (slot.config.entry.disabled || !this.approved(slot)) continue;
      const started = this.ensureStarted(slot);
      if (started) starting.push(started);
    }
    if (!wait || starting.length === 0) return;
    const waitMs = this.deps.turnWaitMs ?? DEFAULT_TURN_WAIT_MS;
    const limit = new AbortController();
    await Promise.race([Promise.all(starting), this.deps.clock.sleep(waitMs, limit.signal).catch(() => undefined)]);
    limit.abort();
  }

  /** Servers with `startup: "session"`: started when a session of the workspace opens. */
  warm(): void {
    for (const slot of this.slots.values()) {
      if (slot.config.entry.startup === 'session' && !slot.config.entry.disabled && this.approved(slot)) void this.ensureStarted(slot);
    }
  }

  /** The tools of connected servers and a one-line notice per server that is down, for one model request. */
  toolsFor(sessionId: string): DynamicTools {
    const tools: AnyTool[] = [];
    const notices: string[] = [];
    for (const slot of this.slots.values()) {
      if (slot.config.entry.disabled || !this.approved(slot) || this.refusedIn(slot, sessionId)) continue;
      const c = slot.connection;
      if (slot.problem) notices.push(`MCP server "${slot.config.name}" cannot start (${slot.problem}); its tools are not available.`);
      else if (c?.state === 'connected') tools.push(...this.toolsOf(slot, c));
      else if (c?.state === 'failed')
        notices.push(
          `MCP server "${slot.config.name}" failed (${short(c.reason)}); its tools are gone for now. Tandem restarts it with backoff at a later turn.`,
        );
      else if (c?.state === 'starting') notices.push(`MCP server "${slot.config.name}" is still starting; its tools appear when it is ready.`);
    }
    return { tools, notices };
  }

  status(sessionId?: string): McpServerStatus[] {
    return [...this.slots.values()].map((slot) => {
      const base = { name: slot.config.name, scope: slot.config.scope };
      if (slot.config.entry.disabled) return { ...base, status: 'disabled', tools: [] };
      if (!this.approved(slot)) {
        const reason =
          sessionId && this.refusedIn(slot, sessionId)
            ? 'a driver refused this launch in this session'
            : 'a driver must approve its launch; asked at the next turn';
        return { ...base, status: 'needs_approval', reason, tools: [] };
      }
      if (slot.problem) return { ...base, status: 'failed', reason: slot.problem, tools: [] };
      const c = slot.connection;
      if (!c) return { ...base, status: 'starting', reason: 'not started yet: it starts at the first turn that needs it', tools: [] };
      if (c.state === 'connected') return { ...base, status: 'connected', tools: this.toolsOf(slot, c).map((t) => t.name) };
      if (c.state === 'failed') return { ...base, status: 'failed', reason: c.reason ?? 'failed', tools: [] };
      return { ...base, status: 'starting', tools: [] };
    });
  }

  /** The live connection of a server, for hosts that call it directly (e.g. a messaging bridge). */
  connection(name: string): McpConnection | undefined {
    const slot = this.slots.get(name);
    if (!slot || slot.config.entry.disabled || !this.approved(slot)) return undefined;
    void this.ensureStarted(slot);
    return slot.connection;
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.slots.values()].map((s) => s.connection?.close()));
  }

  private approved(slot: Slot): boolean {
    return slot.config.scope === 'user' || this.deps.approvals.isApproved(this.workspace, slot.config.name, slot.fingerprint);
  }

  private refusedIn(slot: Slot, sessionId: string): boolean {
    return this.refused.get(`${slot.config.name}\u0000${slot.fingerprint}`)?.has(sessionId) ?? false;
  }

  private async askApproval(slot: Slot, turn: TurnPreparation): Promise<void> {
    if (!turn.gate) {
      this.deps.approvals.approve(this.workspace, slot.config.name, slot.fingerprint, 'system (no permission gate)', new Date(this.deps.clock.now()));
      return;
    }
    const launch = launchShown(slot.config);
    const verdict = await turn.gate.check(
      {
        turnId: turn.turnId,
        callId: `mcp-server-${randomUUID()}`,
        tool: 'mcp_server',
        args: launch,
        danger: 'dangerous',
        readOnly: false,
        kind: 'execute',
        // Each approval is for one exact launch: no rule covers the next one.
        alwaysAsk: true,
        summary: `start MCP server ${launch.name}: ${launch.url ?? [launch.command, ...(launch.args ?? [])].join(' ')}`,
      },
      turn.signal,
    );
    if (verdict.allow) {
      this.deps.approvals.approve(this.workspace, slot.config.name, slot.fingerprint, `session ${turn.sessionId}`, new Date(this.deps.clock.now()));
      return;
    }
    if (turn.signal.aborted) return;
    const key = `${slot.config.name}\u0000${slot.fingerprint}`;
    const sessions = this.refused.get(key) ?? new Set<string>();
    sessions.add(turn.sessionId);
    this.refused.set(key, sessions);
  }

  /** Starts the slot's server when it is not running (a failed one only after its backoff); returns the start, if any. */
  private ensureStarted(slot: Slot): Promise<void> | undefined {
    if (this.closed) return undefined;
    const c = slot.connection;
    if (c && c.state === 'starting') return c.started;
    if (c && c.state === 'connected') return undefined;
    if (c && c.state === 'failed' && this.deps.clock.now() < slot.retryAt) return undefined;
    try {
      const expanded = expandLaunch(
        slot.config,
        this.workspace,
        this.deps.env,
        this.deps.secret,
        launchWithheld(slot.config.scope, this.deps.env, this.deps.envPolicy),
      );
      slot.secrets = expanded.secrets;
      slot.problem = undefined;
      const connection: McpConnection = new McpConnection({
        name: slot.config.name,
        launch: expanded.launch,
        logger: this.deps.logger,
        startupTimeoutMs: slot.config.entry.startupTimeoutMs ?? this.deps.startupTimeoutMs ?? DEFAULT_STARTUP_TIMEOUT_MS,
        onChange: () => this.onChange(slot, connection),
      });
      slot.connection = connection;
      return connection.started;
    } catch (err) {
      slot.problem = (err as Error).message;
      return undefined;
    }
  }

  private onChange(slot: Slot, connection: McpConnection): void {
    if (slot.connection !== connection) return;
    if (connection.state === 'connected') slot.failures = 0;
    if (connection.state === 'failed') {
      slot.failures += 1;
      slot.retryAt = this.deps.clock.now() + Math.min(BACKOFF_BASE_MS * 2 ** (slot.failures - 1), BACKOFF_MAX_MS);
    }
  }

  private toolsOf(slot: Slot, connection: McpConnection): AnyTool[] {
    if (slot.tools?.from !== connection.tools) {
      slot.tools = {
        from: connection.tools,
        list: connection.tools.map((t) => mcpTool(slot.config.name, slot.config.entry, t, connection, slot.secrets, this.deps.keepImages)),
      };
    }
    return slot.tools.list;
  }
}

function short(reason: string | undefined): string {
  const text = reason ?? 'unknown reason';
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
