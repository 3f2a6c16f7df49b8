/**
 * One line that says what a tool call does: the command verbatim for run_command, the path
 * for file tools, the pattern for searches, otherwise the first few fields. Never throws,
 * whatever the model put in `args`.
 */
const MAX_SUMMARY = 300;

const PATH_TOOLS = new Set(['read_file', 'write_file', 'edit_file', 'insert_line', 'delete_lines', 'delete_file', 'list_directory', 'get_file_info']);

export function summarizeArgs(tool: string, args: unknown): string {
  const record = isRecord(args) ? args : null;
  if (!record) return cap(args === undefined ? '' : safeJson(args));
  if (tool === 'run_command' && typeof record.command === 'string') return cap(oneLine(record.command));
  const orchestration = orchestrationSummary(tool, record);
  if (orchestration !== null) return cap(oneLine(orchestration));
  if (PATH_TOOLS.has(tool) && typeof record.path === 'string') return cap(record.path + lineRange(record));
  if (tool === 'grep_files' && typeof record.pattern === 'string') {
    const glob = typeof record.glob === 'string' ? ` in ${record.glob}` : '';
    return cap(`/${record.pattern}/${glob}`);
  }
  if (typeof record.pattern === 'string') return cap(record.pattern);
  if (typeof record.query === 'string') return cap(record.query);
  return cap(genericSummary(record));
}

/** `reviewer: review main.ts` for dispatch_to, `[name: ]task` for run_worker, `pair[: message]` for hand_off_to. */
function orchestrationSummary(tool: string, record: Record<string, unknown>): string | null {
  const text = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value : null);
  if (tool === 'dispatch_to' && text(record.agent) && text(record.task)) return `${record.agent}: ${record.task}`;
  if (tool === 'run_worker' && text(record.task)) return text(record.name) ? `${record.name}: ${record.task}` : (record.task as string);
  if (tool === 'hand_off_to' && text(record.agent)) return text(record.message) ? `${record.agent}: ${record.message}` : (record.agent as string);
  return null;
}

function lineRange(record: Record<string, unknown>): string {
  const start = record.startLine ?? record.start_line ?? record.line ?? record.offset;
  const end = record.endLine ?? record.end_line;
  if (typeof start === 'number' && typeof end === 'number') return `:${start}-${end}`;
  if (typeof start === 'number') return `:${start}`;
  return '';
}

function genericSummary(record: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(record)) {
    if (parts.length === 3) break;
    const shown = typeof value === 'string' ? oneLine(value) : safeJson(value);
    parts.push(`${key}=${shown.length > 60 ? `${shown.slice(0, 59)}…` : shown}`);
  }
  return parts.join(' ');
}

/** Newlines shown as ⏎ so a multi-line command stays one line and still reads verbatim. */
function oneLine(text: string): string {
  return text.replace(/\r?\n/g, ' ⏎ ');
}

function cap(text: string): string {
  return text.length > MAX_SUMMARY ? `${text.slice(0, MAX_SUMMARY - 1)}…` : text;
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '?';
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  const minutes = Math.floor(ms / 60_000);
  const seconds = Math.round((ms % 60_000) / 1000);
  return `${minutes}m${String(seconds).padStart(2, '0')}s`;
}
