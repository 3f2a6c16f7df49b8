import { readFile, stat } from 'node:fs/promises';
import { isAbsolute, relative, resolve } from 'node:path';
import type { ToolCallContent, ToolCallLocation, ToolKind } from '@agentclientprotocol/sdk';
import { summarizeArgs } from '@tandem/tui/state';

const KINDS: Record<string, ToolKind> = {
  read_file: 'read',
  list_directory: 'read',
  get_file_info: 'read',
  read_env: 'read',
  read_job_output: 'read',
  read_skill: 'read',
  write_file: 'edit',
  edit_file: 'edit',
  insert_line: 'edit',
  delete_lines: 'edit',
  delete_file: 'delete',
  grep_files: 'search',
  search_files: 'search',
  web_search: 'search',
  memory_search: 'search',
  run_command: 'execute',
  stop_job: 'execute',
  web_fetch: 'fetch',
  dispatch_to: 'think',
  run_worker: 'think',
  hand_off_to: 'switch_mode',
};

/** How an editor should draw a Tandem tool (its icon and grouping). */
export function toolKind(tool: string): ToolKind {
  if (tool.startsWith('skill__')) return 'execute';
  return KINDS[tool] ?? 'other';
}

/** A one-line title: the command verbatim for run_command, `tool path` for file tools, … */
export function toolTitle(tool: string, args: unknown): string {
  if (tool === 'mcp_server') return `start MCP server ${summarizeArgs(tool, args)}`;
  if (tool === 'run_command') return summarizeArgs(tool, args) || tool;
  const summary = summarizeArgs(tool, args);
  return summary ? `${tool} ${summary}` : tool;
}

/** The file a call touches, for an editor's follow-along (absolute). */
export function toolLocations(args: unknown, cwd: string): ToolCallLocation[] {
  const path = pathArg(args);
  if (!path) return [];
  const line = lineArg(args);
  return [{ path: resolve(cwd, path), ...(line !== undefined ? { line } : {}) }];
}

/** Files larger than this are not read to show a diff. */
const MAX_DIFF_FILE_BYTES = 1024 * 1024;

/**
 * The diff an edit will make, for the editor to show while it asks and after: write_file's new
 * content against the file as it is now, edit_file's text replacement applied to the file. The
 * file is read only when `readFiles` (the files are this machine's and the call waits for an
 * answer, so it has not run yet) and inside the session's folder; else (or when the text to
 * replace is not found once) the replaced and new text alone. Line-range edits have no diff
 * here; their result text carries one.
 */
export async function editDiff(tool: string, args: unknown, cwd: string, readFiles: boolean): Promise<ToolCallContent | undefined> {
  if (typeof args !== 'object' || args === null) return undefined;
  const record = args as Record<string, unknown>;
  const path = pathArg(args);
  if (!path) return undefined;
  const file = resolve(cwd, path);
  const current = readFiles ? await readInside(file, cwd) : undefined;
  if (tool === 'write_file' && typeof record.content === 'string') {
    return { type: 'diff', path: file, oldText: current ?? null, newText: record.content };
  }
  if (tool === 'edit_file' && typeof record.old_string === 'string' && typeof record.new_string === 'string') {
    const old = record.old_string;
    if (current !== undefined && old !== '' && current.indexOf(old) >= 0 && current.indexOf(old) === current.lastIndexOf(old)) {
      const at = current.indexOf(old);
      return { type: 'diff', path: file, oldText: current, newText: current.slice(0, at) + record.new_string + current.slice(at + old.length) };
    }
    return { type: 'diff', path: file, oldText: old, newText: record.new_string };
  }
  return undefined;
}

/**
 * After write_file replaced a file without asking first (auto modes), the diff against the
 * previous content it kept in `<file>.bak`; undefined when there is none to read.
 */
export async function replacedDiff(args: unknown, cwd: string): Promise<ToolCallContent | undefined> {
  const path = pathArg(args);
  const content = (args as { content?: unknown } | null)?.content;
  if (!path || typeof content !== 'string') return undefined;
  const file = resolve(cwd, path);
  const previous = await readInside(`${file}.bak`, cwd);
  return previous === undefined ? undefined : { type: 'diff', path: file, oldText: previous, newText: content };
}

/** Text as tool call content. */
export function textContent(text: string): ToolCallContent {
  return { type: 'content', content: { type: 'text', text } };
}

async function readInside(file: string, cwd: string): Promise<string | undefined> {
  const rel = relative(cwd, file);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return undefined;
  try {
    const info = await stat(file);
    if (!info.isFile() || info.size > MAX_DIFF_FILE_BYTES) return undefined;
    const bytes = await readFile(file);
    if (bytes.includes(0)) return undefined;
    return bytes.toString('utf8');
  } catch {
    return undefined;
  }
}

function pathArg(args: unknown): string | undefined {
  if (typeof args !== 'object' || args === null) return undefined;
  const path = (args as { path?: unknown }).path;
  return typeof path === 'string' && path !== '' ? path : undefined;
}

function lineArg(args: unknown): number | undefined {
  const record = args as Record<string, unknown>;
  const line = record.start_line ?? record.line;
  return typeof line === 'number' && Number.isInteger(line) && line > 0 ? line : undefined;
}
