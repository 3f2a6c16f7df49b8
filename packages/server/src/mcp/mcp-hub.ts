import type { CommandEnvPolicy } from '../os-sandbox/command-env.js';
import pino, { type Logger } from 'pino';
import { canonicalWorkspace, type AnyTool, type TurnOptions } from '@tandem/core';
import { systemClock, type Clock, type ToolImage } from '@tandem/ai';
import { SecretStore } from '../secrets/secret-store.js';
import { McpApprovals } from './mcp-approvals.js';
import type { McpConnection } from './mcp-connection.js';
import type { McpServerStatus } from './mcp-status.js';
import { MCP_SCHEMA_SHARE, SchemaBudget } from './schema-budget.js';
import { ToolImageStore } from './tool-image-store.js';
import { mcpToolName } from './tool-names.js';
import { WorkspaceMcp } from './workspace-mcp.js';

export interface McpHubOptions {
  dataDir: string;
  env: NodeJS.ProcessEnv;
  /** What a project server's launch may not take from the environment (tokens, keys, secret-looking names). */
  envPolicy?: CommandEnvPolicy;
  /** Default: silent. */
  logger?: Logger;
  /** Default: the system clock. */
  clock?: Clock;
  startupTimeoutMs?: number;
  turnWaitMs?: number;
  /** The context window of a model id (default 128k); MCP schemas may take 10 % of it. */
  contextWindow?: (modelId: string) => number;
  /** Overrides the schema budget, in tokens (tests). */
  toolSchemaBudgetTokens?: number;
}

/**
 * Every workspace's MCP servers for one Tandem server: created on first use, shared by the
 * sessions of a workspace, all stopped by `close()` (with the server).
 */
export class McpHub {
  private readonly workspaces = new Map<string, Promise<WorkspaceMcp>>();
  private readonly approvals: McpApprovals;
  private secrets: SecretStore | undefined;
  private closed = false;
  private readonly modelOf = new Map<string, string>();
  private readonly budget: SchemaBudget;
  private readonly images = new ToolImageStore();
  /** Each session's directory (`<dataDir>/sessions/<id>`), where its tools' images are kept. */
  private readonly sessionDirs = new Map<string, string>();

  constructor(private readonly options: McpHubOptions) {
    this.approvals = new McpApprovals(options.dataDir);
    this.budget = new SchemaBudget((sessionId) => {
      if (options.toolSchemaBudgetTokens !== undefined) return options.toolSchemaBudgetTokens;
      const model = this.modelOf.get(sessionId) ?? '';
      const window = safeWindow(options.contextWindow, model);
      return Math.floor(window * MCP_SCHEMA_SHARE);
    });
  }

  /** The MCP servers of the workspace at `cwd` (any path to it; keyed by its real path). */
  forWorkspace(cwd: string): Promise<WorkspaceMcp> {
    const key = canonicalWorkspace(cwd).then((workspace) => {
      let found = this.workspaces.get(workspace);
      if (!found) {
        found = Promise.resolve(
          new WorkspaceMcp(workspace, {
            dataDir: this.options.dataDir,
            env: this.options.env,
            ...(this.options.envPolicy ? { envPolicy: this.options.envPolicy } : {}),
            secret: (name) => this.secret(name),
            approvals: this.approvals,
            logger: this.options.logger ?? pino({ level: 'silent' }),
            clock: this.options.clock ?? systemClock,
            ...(this.options.startupTimeoutMs !== undefined ? { startupTimeoutMs: this.options.startupTimeoutMs } : {}),
            ...(this.options.turnWaitMs !== undefined ? { turnWaitMs: this.options.turnWaitMs } : {}),
            keepImages: (sessionId, images) => this.keepImages(sessionId, images),
          }),
        );
        this.workspaces.set(workspace, found);
      }
      return found;
    });
    return key;
  }

  /**
   * A connected client for the named server of a workspace, starting it if needed and waiting
   * for the start; undefined when it is not configured, not approved, disabled or failed.
   */
  async connection(cwd: string, name: string): Promise<McpConnection | undefined> {
    const workspace = await this.forWorkspace(cwd);
    const connection = workspace.connection(name);
    await connection?.started;
    return connection?.state === 'connected' ? connection : undefined;
  }

  /**
   * The engine tool `mcp__SERVER__TOOL` of a workspace's server for one session, starting the
   * server if needed and waiting for it; undefined when the server is not configured, not
   * approved (or refused in this session), disabled, failed, or has no such tool.
   */
  async toolFor(cwd: string, sessionId: string, server: string, tool: string): Promise<AnyTool | undefined> {
    const workspace = await this.forWorkspace(cwd);
    workspace.reload();
    await workspace.connection(server)?.started;
    return workspace.toolsFor(sessionId).tools.find((t) => t.name === mcpToolName(server, tool));
  }

  /** Live status of a workspace's servers; starts approved servers first and waits briefly for them. */
  async status(cwd: string, sessionId?: string): Promise<McpServerStatus[]> {
    const workspace = await this.forWorkspace(cwd);
    workspace.reload();
    await workspace.startRunnable(true);
    return workspace.status(sessionId);
  }

  /**
   * The turn step: approvals and starts before the first model request, then the servers'
   * tools (and notices for servers that are down) before every request of the turn.
   */
  async extendTurn(session: { id: string; meta: { cwd: string }; dir?: string }, options: TurnOptions): Promise<TurnOptions> {
    if (this.closed) return options;
    if (session.dir !== undefined) {
      this.sessionDirs.set(session.id, session.dir);
      // The conversation comes from the log, which keeps each image's ref, not its bytes.
      this.images.hydrate(session.dir, options.conversation);
    }
    const workspace = await this.forWorkspace(session.meta.cwd);
    const { environment } = options;
    await workspace.prepareTurn({ sessionId: session.id, turnId: options.turnId, gate: environment.gate, signal: options.control.signal });
    const before = environment.dynamicTools;
    this.modelOf.set(session.id, options.model.id);
    return {
      ...options,
      environment: {
        ...environment,
        dynamicTools: () => {
          const earlier = before?.() ?? { tools: [], notices: [] };
          const mine = this.budget.apply(session.id, workspace.toolsFor(session.id));
          return { tools: [...earlier.tools, ...mine.tools], notices: [...earlier.notices, ...mine.notices] };
        },
      },
    };
  }

  /**
   * A tool's images kept once in the session's directory, each with its `ref` (what the event log
   * records). Without a known directory, or when writing fails, they stay in memory only: this
   * turn still sends them; a later turn reads a note instead.
   */
  private keepImages(sessionId: string, images: ToolImage[]): ToolImage[] {
    const dir = this.sessionDirs.get(sessionId);
    if (dir === undefined) return images;
    return images.map((image) => {
      if (image.data === undefined) return image;
      try {
        return { ...image, ref: this.images.save(dir, { mimeType: image.mimeType, data: image.data }) };
      } catch (err) {
        this.options.logger?.warn({ err, sessionId }, 'could not keep a tool image; later turns will not see it');
        return image;
      }
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const all = await Promise.all([...this.workspaces.values()]);
    await Promise.all(all.map((w) => w.close()));
  }

  private secret(name: string): string | undefined {
    this.secrets ??= SecretStore.open(this.options.dataDir);
    this.secrets.reload();
    return this.secrets.get(name);
  }
}

function safeWindow(windowOf: ((model: string) => number) | undefined, model: string): number {
  try {
    return windowOf?.(model) ?? 128_000;
  } catch {
    return 128_000;
  }
}
