import { readFile, stat } from 'node:fs/promises';
import { isAbsolute, relative, resolve } from 'node:path';
import type { ToolCallContent, ToolCallLocation, ToolKind } from '@agentclientprotocol/sdk';
import { type FileArgs, genericCallSummary, type ToolKind as TandemToolKind } from '@tandem/shared';

/** What an editor draws for each of Tandem's tool kinds (ACP has no message or delegation kinds). */
const KINDS: Record<TandemToolKind, ToolKind> = {
  read: 'read',
  search: 'search',
  edit: 'edit',
  delete: 'delete',
  execute: 'execute',
  fetch: 'fetch',
  message: 'other',
  delegate: 'think',
  handoff: 'switch_mode',
  other: 'other',
};

/** A call as its event describes it: the tool's declared kind, its summary and its file arguments. */
export interface DescribedCall {
  tool: string;
  args: unknown;
  kind?: TandemToolKind;
  summary?: string;
  file?: FileArgs;
}

/** How an editor should draw the call (its icon and grouping), from the kind its tool declared. */
export function toolKind(call: DescribedCall): ToolKind {
  return call.kind ? KINDS[call.kind] : 'other';
}

/** A one-line title: a command verbatim, else `tool summary`. */
export function toolTitle(call: DescribedCall): string {
  const summary = call.summary ?? genericCallSummary(call.args);
  if (call.kind === 'execute') return summary || call.tool;
  return summary ? `${call.tool} ${summary}` : call.tool;
}

/** The file a call touches, for an editor's follow-along (absolute). */
export function toolLocations(call: DescribedCall, cwd: string): ToolCallLocation[] {
  const path = stringArg(call, call.file?.path);
  if (!path) return [];
  const line = lineArg(call);
  return [{ path: resolve(cwd, path), ...(line !== undefined ? { line } : {}) }];
}

/** Files larger than this are not read to show a diff. */
const MAX_DIFF_FILE_BYTES = 1024 * 1024;

/**
 * The diff an edit will make, for the editor to show while it asks and after: a whole new content
 * (write_file) against the file as it is now, a text replacement (edit_file) applied to the file. The
 * file is read only when `readFiles` (the files are this machine's and the call waits for an
 * answer, so it has not run yet) and inside the session's folder; else (or when the text to
 * replace is not found once) the replaced and new text alone. Line-range edits have no diff
 * here; their result text carries one.
 */
export async function editDiff(call: DescribedCall, cwd: string, readFiles: boolean): Promise<ToolCallContent | undefined> {
  const path = stringArg(call, call.file?.path);
  if (!path) return undefined;
  const file = resolve(cwd, path);
  const content = stringArg(call, call.file?.content);
  const old = stringArg(call, call.file?.oldText);
  const replacement = stringArg(call, call.file?.newText);
  if (content === undefined && (old === undefined || replacement === undefined)) return undefined;
  const current = readFiles ? await readInside(file, cwd) : undefined;
  if (content !== undefined) return { type: 'diff', path: file, oldText: current ?? null, newText: content };
  if (old === undefined || replacement === undefined) return undefined;
  if (current !== undefined && old !== '' && current.indexOf(old) >= 0 && current.indexOf(old) === current.lastIndexOf(old)) {
    const at = current.indexOf(old);
    return { type: 'diff', path: file, oldText: current, newText: current.slice(0, at) + replacement + current.slice(at + old.length) };
  }
  return { type: 'diff', path: file, oldText: old, newText: replacement };
}

/**
 * After write_file replaced a file without asking first (auto modes), the diff against the
 * previous content it kept in `<file>.bak`; undefined when there is none to read.
 */
export async function replacedDiff(call: DescribedCall, cwd: string): Promise<ToolCallContent | undefined> {
  const path = stringArg(call, call.file?.path);
  const content = stringArg(call, call.file?.content);
  if (!path || content === undefined) return undefined;
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

/** The value of the argument named `name` when it is a string (empty paths count as none). */
function stringArg(call: DescribedCall, name: string | undefined): string | undefined {
  if (name === undefined || typeof call.args !== 'object' || call.args === null) return undefined;
  const value = (call.args as Record<string, unknown>)[name];
  return typeof value === 'string' && (value !== '' || name !== call.file?.path) ? value : undefined;
}

function lineArg(call: DescribedCall): number | undefined {
  if (!call.file?.line || typeof call.args !== 'object' || call.args === null) return undefined;
  const line = (call.args as Record<string, unknown>)[call.file.line];
  return typeof line === 'number' && Number.isInteger(line) && line > 0 ? line : undefined;
}
