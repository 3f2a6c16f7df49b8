import { z } from 'zod';

/**
 * What kind of thing a tool does, declared by the tool itself (its `kind`). The gate reads it
 * (`edit` is what auto-edit mode may run), and clients draw calls by it (a command's output is
 * shown from its tail, an editor picks an icon). Close to ACP's tool kinds, plus `message`
 * (something sent to a person) and `delegate`/`handoff` (work given to another agent).
 */
export const ToolKindSchema = z.enum(['read', 'search', 'edit', 'delete', 'execute', 'fetch', 'message', 'delegate', 'handoff', 'other']);
export type ToolKind = z.infer<typeof ToolKindSchema>;

/**
 * Which of a file tool's arguments hold its file and its change (argument names, not values), so
 * an editor can follow along and show a diff without knowing the tool: `path`, the first `line`
 * it touches, the whole new `content`, or the `oldText` replaced by `newText`.
 */
export const FileArgsSchema = z.object({
  path: z.string(),
  line: z.string().optional(),
  content: z.string().optional(),
  oldText: z.string().optional(),
  newText: z.string().optional(),
});
export type FileArgs = z.infer<typeof FileArgsSchema>;

/** Longest one-line call summary carried by `tool_call.summary`. */
export const MAX_CALL_SUMMARY = 300;

/**
 * The one-line summary of a call whose tool says nothing better (an MCP tool, an event from an
 * older server): its `pattern` or `query`, else its first three fields. Never throws.
 */
export function genericCallSummary(args: unknown): string {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return capSummary(args === undefined ? '' : safeJson(args));
  const record = args as Record<string, unknown>;
  if (typeof record.pattern === 'string') return capSummary(oneLine(record.pattern));
  if (typeof record.query === 'string') return capSummary(oneLine(record.query));
  const parts: string[] = [];
  for (const [key, value] of Object.entries(record)) {
    if (parts.length === 3) break;
    const shown = typeof value === 'string' ? oneLine(value) : safeJson(value);
    parts.push(`${key}=${shown.length > 60 ? `${shown.slice(0, 59)}…` : shown}`);
  }
  return capSummary(parts.join(' '));
}

/** Newlines shown as ⏎ so a multi-line command stays one line and still reads verbatim. */
export function oneLine(text: string): string {
  return text.replace(/\r?\n/g, ' ⏎ ');
}

export function capSummary(text: string): string {
  return text.length > MAX_CALL_SUMMARY ? `${text.slice(0, MAX_CALL_SUMMARY - 1)}…` : text;
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
