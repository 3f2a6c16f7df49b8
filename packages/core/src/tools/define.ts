import { z } from 'zod';
import { capSummary, type Danger, type FileArgs, type ToolKind, genericCallSummary, oneLine } from '@tandem/shared';
import type { CommandRunner } from '../ports/command-runner.js';
import type { ToolSpec } from '@tandem/ai';
import type { PathResolver } from '../ports/path-resolver.js';
import type { DeclaredSubject, GateCall, PreviewView } from '../ports/tool-gate.js';
import type { ToolImage } from '@tandem/ai';

// A tool author's one import: the bottom layer's ToolError and the PathResolver port, handed on.
export { ToolError } from '../base/tool-error.js';
export type { PathResolver } from '../ports/path-resolver.js';

/** Read-before-write bookkeeping (requirements A8): what this session has read, and whether it changed since. */
export interface FileBaselines {
  recordRead(absPath: string, content: Buffer | string): void;
  /** Throws a stale/not-read error unless the file on disk matches what this session last read. */
  assertFresh(absPath: string): Promise<void>;
  recordWrite(absPath: string, content: Buffer | string): void;
}

export interface ToolContext {
  sessionId: string;
  callId: string;
  /** The session's workspace. Relative paths resolve against it. */
  cwd: string;
  signal: AbortSignal;
  /** Streamed output for attached clients (e.g. live command bytes). */
  onOutput(chunk: string): void;
  runner: CommandRunner;
  paths: PathResolver;
  baselines: FileBaselines;
  /** Host-provided extras a tool may need (data dir, job manager, memory store...). */
  services: ToolServices;
}

/**
 * The host services tools reach through `ctx.services`, typed per tool: the folder of a tool that
 * needs one declares its members by merging them into this interface
 * (`declare module '../define.js' { interface ToolServices extends WebServices {} }`), so a new
 * tool's service is written beside the tool. Every member is optional: a host provides what it
 * has, and a tool whose service is missing fails with a ToolError saying what to set up.
 */
// biome-ignore lint/suspicious/noEmptyInterface: the members come from each tool folder's declaration merging
export interface ToolServices {}

export interface ToolOutcome {
  output: string;
  isError?: boolean;
  /** Images beside the text (an MCP tool's image content), passed on to the model as images. */
  images?: ToolImage[];
  /** The turn ends after this result, as answered, with no further model call (`hand_off_to`). */
  endsTurn?: boolean;
}

/** One path a call touches: `outside` paths are checked with `resolveOutsideWorkspace` (self_clone's target). */
export interface PathUse {
  path: string;
  intent: 'read' | 'write';
  outside?: boolean;
}

export interface ToolDefinition<S extends z.ZodType = z.ZodType> {
  name: string;
  /** Says what the tool does and when to prefer another tool. */
  description: string;
  schema: S;
  /**
   * What kind of thing the tool does. The gate and the clients read it instead of the tool's
   * name: `edit` is what auto-edit mode runs without asking, `execute` calls are drawn from the
   * tail of their output and run in the OS sandbox, editors pick an icon by it.
   */
  kind: ToolKind;
  /** Optional: what a rule about this call is about (see DeclaredSubject). Never throws for valid arguments. */
  subject?(args: z.infer<S>): DeclaredSubject | undefined;
  /**
   * Optional: what a person reads before approving the call (an edit as a diff, a message with
   * its recipient). Default: the subject (the command verbatim, the path, the address), else the
   * arguments as JSON. Built from the arguments only, no disk reads.
   */
  preview?(args: z.infer<S>, view: PreviewView): string;
  /** Optional: one line saying what the call does, for transcripts (default: a few of its arguments). */
  summary?(args: z.infer<S>): string;
  /** Optional, for a file tool: which arguments hold the file and its change (clients' diffs and follow-along). */
  file?: FileArgs;
  /** Every call asks, whatever the rules and the mode (configure_provider): no allow rule covers it. */
  alwaysAsk?: boolean;
  /**
   * The files the call changes cannot be known from its arguments (a shell command, an MCP
   * server's tool): a checkpoint keeps the whole workspace around it.
   */
  unknownWrites?: boolean;
  /** A fixed level, or one computed from the arguments (e.g. by command). */
  danger: Danger | ((args: z.infer<S>) => Danger);
  readOnly: boolean;
  /**
   * Optional: how long this call may run, when it may need longer than the loop's per-tool
   * limit (requirements A5: 120 s) — e.g. run_command with timeout_seconds: 300. Hosts and the loop
   * should use max(their limit, this) for the call. Undefined means the default applies.
   */
  timeoutMs?(args: z.infer<S>): number | undefined;
  /**
   * Optional: the paths this call will touch. The loop checks each with the path sandbox BEFORE
   * the permission step (a person is never asked about a call the sandbox refuses); the tool
   * still resolves them itself when it runs.
   */
  paths?(args: z.infer<S>): PathUse[];
  /**
   * Optional: the JSON Schema to show the model instead of one derived from `schema`, for tools
   * whose schema comes from elsewhere (an MCP server's `inputSchema`). `schema` still validates.
   */
  parameters?: Record<string, unknown>;
  /**
   * Optional: top-level arguments whose values are secrets (configure_provider's `apiKey`). The
   * loop withholds them from everything but this tool: the `tool_call` event, the conversation
   * the model sees next, the permission request and the audit record all carry a placeholder.
   */
  secretArgs?: readonly string[];
  /**
   * Optional: for a tool that needs setting up first (a calendar, a messaging bridge), undefined
   * when it is ready in a session with these services, else one short clause saying how to set
   * it up. A tool that is not ready is not offered to the model (its schema would cost bytes in
   * every request for nothing): the system prompt names it with that clause instead. A call to it
   * still runs through the same gate and answers with the tool's own error.
   */
  setup?(services: ToolServices): string | undefined;
  execute(args: z.infer<S>, ctx: ToolContext): Promise<string | ToolOutcome>;
}

export type AnyTool = ToolDefinition<z.ZodType>;

export function defineTool<S extends z.ZodType>(def: ToolDefinition<S>): ToolDefinition<S> {
  return def;
}

/**
 * What a tool that runs a shell command line (`args.command`) declares: kind `execute`, the
 * command as the subject (the blacklist, the read-only list, the rules and the question are
 * about it), the command as its summary, and unknown writes. Spread into the definition.
 */
export const RUNS_A_COMMAND = {
  kind: 'execute',
  subject: (args: { command: string }): DeclaredSubject => ({ command: args.command.trim() }),
  summary: (args: { command: string }): string => capSummary(oneLine(args.command)),
  unknownWrites: true,
} as const;

/**
 * What the gate and the clients need to know about one call, from the tool's own declarations.
 * Throws when the tool's `subject` throws (the caller refuses the call: a subject it cannot name
 * must never be ruled on as the whole tool).
 */
export function describeCall(tool: AnyTool, args: unknown): Pick<GateCall, 'kind' | 'subject' | 'alwaysAsk' | 'unknownWrites' | 'summary' | 'preview'> {
  const subject = tool.subject?.(args);
  const preview = tool.preview;
  return {
    kind: tool.kind,
    ...(subject ? { subject } : {}),
    ...(tool.alwaysAsk ? { alwaysAsk: true } : {}),
    ...(tool.unknownWrites ? { unknownWrites: true } : {}),
    summary: summaryOf(tool, args),
    ...(preview ? { preview: (view: PreviewView) => preview(args, view) } : {}),
  };
}

/** The call's one-line summary: the tool's own, else a few of its arguments. Never throws. */
export function summaryOf(tool: AnyTool | undefined, args: unknown): string {
  if (tool?.summary && args !== undefined) {
    try {
      const own: unknown = tool.summary(args);
      if (typeof own === 'string') return own;
    } catch {
      // fall through to the generic summary
    }
  }
  return genericCallSummary(args);
}

export function dangerOf(tool: AnyTool, args: unknown): Danger {
  return typeof tool.danger === 'function' ? tool.danger(args) : tool.danger;
}

/** The provider-facing definition: name, description and JSON Schema only. */
export function toToolSpec(tool: AnyTool): ToolSpec {
  if (tool.parameters) return { name: tool.name, description: tool.description, parameters: tool.parameters };
  const schema = z.toJSONSchema(tool.schema, { target: 'draft-7', io: 'input' }) as Record<string, unknown>;
  delete schema.$schema;
  return { name: tool.name, description: tool.description, parameters: withoutSafeIntegerBounds(schema) as Record<string, unknown> };
}

/**
 * zod writes `.int()` as bounds of +-(2^53 - 1), which constrain nothing a model would send; they
 * cost ~30 bytes per integer parameter in every request, so they are left out of the spec.
 * (Arguments are still validated with the zod schema itself.)
 */
function withoutSafeIntegerBounds(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSafeIntegerBounds);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    if (key === 'maximum' && inner === Number.MAX_SAFE_INTEGER) continue;
    if (key === 'minimum' && inner === Number.MIN_SAFE_INTEGER) continue;
    out[key] = withoutSafeIntegerBounds(inner);
  }
  return out;
}
