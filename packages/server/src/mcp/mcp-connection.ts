import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Logger } from 'pino';
import { createTransport, type McpLaunch } from './mcp-launch.js';
import { mcpSdk } from './mcp-sdk.js';

export type ConnectionState = 'starting' | 'connected' | 'failed' | 'closed';

export interface ConnectionOptions {
  name: string;
  launch: McpLaunch;
  logger: Logger;
  /** How long `initialize` plus the first tool list may take (a slow `npx` start needs time). */
  startupTimeoutMs: number;
  /** Told after every change of state or tool list. */
  onChange(): void;
}

/** How Tandem introduces itself to MCP servers. */
const CLIENT_INFO = { name: 'tandem', version: '0.1.0' };

/** Pages of `tools/list` read at most (a server that pages forever is cut off here). */
const MAX_TOOL_PAGES = 50;

/**
 * One live MCP client: connects (stdio or Streamable HTTP, falling back to SSE), reads the
 * paginated tool list, re-reads it on `notifications/tools/list_changed`, and turns an exit,
 * a timeout or garbage into state `failed` with a reason. It never throws from `start`.
 */
export class McpConnection {
  state: ConnectionState = 'starting';
  reason: string | undefined;
  tools: Tool[] = [];
  private client: Client | undefined;
  private lastStderr = '';
  private lastError = '';
  private closing = false;
  readonly started: Promise<void>;

  constructor(private readonly options: ConnectionOptions) {
    this.started = this.start();
  }

  get name(): string {
    return this.options.name;
  }

  /** Calls one tool with a timeout and the turn's abort signal. Throws when the server is gone. */
  async callTool(tool: string, args: Record<string, unknown>, signal: AbortSignal, timeoutMs: number): Promise<CallToolResult> {
    const client = this.client;
    if (!client || this.state !== 'connected') throw new Error(`MCP server "${this.name}" is ${this.state}${this.reason ? `: ${this.reason}` : ''}`);
    return (await client.callTool({ name: tool, arguments: args }, undefined, { signal, timeout: timeoutMs, resetTimeoutOnProgress: true })) as CallToolResult;
  }

  /** The SDK client, once connected (for hosts that speak to a server directly, e.g. a messaging bridge). */
  connectedClient(): Client | undefined {
    return this.state === 'connected' ? this.client : undefined;
  }

  async close(): Promise<void> {
    this.closing = true;
    if (this.state !== 'failed') this.set('closed');
    await this.client?.close().catch(() => undefined);
  }

  private async start(): Promise<void> {
    const { launch, startupTimeoutMs } = this.options;
    try {
      await this.connect(launch.kind === 'http' && launch.sse);
    } catch (err) {
      const fallback = launch.kind === 'http' && !launch.sse && !this.closing && isHttpRefusal(err);
      if (fallback) {
        this.options.logger.info({ mcpServer: this.name }, 'Streamable HTTP refused; trying the older SSE transport');
        try {
          await this.connect(true);
          return;
        } catch (second) {
          return this.fail(describeStartError(second, startupTimeoutMs, this.detail()));
        }
      }
      return this.fail(describeStartError(err, startupTimeoutMs, this.detail()));
    }
  }

  private async connect(useSse: boolean): Promise<void> {
    await this.client?.close().catch(() => undefined);
    const sdk = await mcpSdk();
    const transport = createTransport(sdk, this.options.launch, useSse);
    this.pipeStderr(transport);
    const client = new sdk.Client(CLIENT_INFO, { capabilities: {} });
    this.client = client;
    client.onerror = (err) => {
      this.lastError = err.message;
      this.options.logger.warn({ mcpServer: this.name, err: err.message }, 'MCP server error');
    };
    client.onclose = () => {
      if (this.closing || this.client !== client || this.state !== 'connected') return;
      this.fail(`the server closed the connection${this.detail()}`);
    };
    client.setNotificationHandler(sdk.ToolListChangedNotificationSchema, () => {
      void this.listTools(client).then(
        (tools) => {
          this.tools = tools;
          this.options.onChange();
        },
        (err: Error) => this.options.logger.warn({ mcpServer: this.name, err: err.message }, 'could not re-read the tool list'),
      );
    });
    const deadline = AbortSignal.timeout(this.options.startupTimeoutMs);
    const timeout = this.options.startupTimeoutMs;
    await client.connect(transport, { timeout, signal: deadline });
    const tools = await this.listTools(client, deadline);
    if (this.closing) return;
    this.tools = tools;
    this.set('connected');
  }

  private async listTools(client: Client, signal?: AbortSignal): Promise<Tool[]> {
    const all: Tool[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_TOOL_PAGES; page++) {
      const result = await client.listTools(cursor ? { cursor } : undefined, { timeout: this.options.startupTimeoutMs, ...(signal ? { signal } : {}) });
      all.push(...result.tools);
      cursor = result.nextCursor;
      if (!cursor) break;
    }
    return all;
  }

  private pipeStderr(transport: Transport): void {
    const stderr = (transport as Partial<StdioClientTransport>).stderr;
    stderr?.on('data', (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      for (const line of text.split('\n')) {
        if (line.trim() === '') continue;
        this.lastStderr = [...this.lastStderr.split(' | ').filter(Boolean), line.trim().slice(0, 200)].slice(-3).join(' | ');
        this.options.logger.info({ mcpServer: this.name, stderr: line }, 'MCP server stderr');
      }
    });
  }

  private detail(): string {
    const parts = [this.lastError && `last error: ${this.lastError}`, this.lastStderr && `last stderr lines: ${this.lastStderr}`].filter(Boolean);
    return parts.length > 0 ? ` (${parts.join('; ')})` : '';
  }

  private fail(reason: string): void {
    if (this.closing) return;
    this.reason = reason;
    this.tools = [];
    this.set('failed');
    this.options.logger.warn({ mcpServer: this.name, reason }, 'MCP server failed');
    void this.client?.close().catch(() => undefined);
  }

  private set(state: ConnectionState): void {
    this.state = state;
    this.options.onChange();
  }
}

function isHttpRefusal(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'number' && code >= 400 && code < 500;
}

function describeStartError(err: unknown, timeoutMs: number, detail: string): string {
  const message = err instanceof Error ? err.message : String(err);
  const name = err instanceof Error ? err.name : '';
  if (name === 'TimeoutError' || /timed out|timeout/i.test(message)) {
    return `did not answer initialize and tools/list within ${timeoutMs / 1000} s${detail}`;
  }
  if (/ENOENT/.test(message)) return `could not start: command not found (${message})`;
  return `could not start: ${message}${detail}`;
}
