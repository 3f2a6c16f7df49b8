import { statSync } from 'node:fs';
import { z } from 'zod';
import { readVerified } from '../sandbox/safe-open.js';
import { pathWithLines } from './call-descriptions.js';
import { looksBinary, numberLines, splitLines } from './text-lines.js';
import { defineTool, ToolError } from '@tandem/core';

/** Whole-file reads stop here (requirements T); ranged reads of larger files are allowed up to MAX_RANGED. */
export const READ_FILE_MAX_BYTES = 1024 * 1024;
const MAX_RANGED_BYTES = 64 * 1024 * 1024;

const description = `Reads a text file from the workspace and returns its lines numbered as "<line>\\t<text>" (the number and tab are not part of the file; do not copy them into edits).
Files up to 1 MB are returned whole; for larger files, or to save context, pass offset/limit (lines) or char_offset/char_limit (characters, unnumbered).
Read a file before editing it (edit_file, write_file overwrite, insert_line, delete_lines).
Prefer grep_files to find where something is in many files, search_files to find files by name, list_directory to see what a directory holds.`;

export const readFileTool = defineTool({
  name: 'read_file',
  description,
  schema: z.object({
    path: z.string().describe('File path, relative to the workspace or absolute'),
    offset: z.number().int().min(1).optional().describe('First line to return (1-based)'),
    limit: z.number().int().min(1).optional().describe('How many lines to return'),
    char_offset: z.number().int().min(0).optional().describe('First character to return (0-based)'),
    char_limit: z.number().int().min(1).optional().describe('How many characters to return'),
  }),
  danger: 'safe',
  readOnly: true,
  kind: 'read',
  subject: (args) => ({ path: args.path }),
  summary: (args) => pathWithLines(args.path, args.offset),
  file: { path: 'path' },
  paths: (args) => [{ path: args.path, intent: 'read' }],
  async execute(args, ctx) {
    const file = await ctx.paths.resolve(args.path, 'read');
    const stat = statFile(file, args.path);
    const ranged = args.offset !== undefined || args.limit !== undefined || args.char_offset !== undefined || args.char_limit !== undefined;
    if (stat.size > READ_FILE_MAX_BYTES && !ranged) {
      throw new ToolError(
        `${args.path} is ${formatBytes(stat.size)}, over the 1 MB limit for reading a whole file. Read a part with offset/limit (lines) or char_offset/char_limit, or find the lines you need with grep_files.`,
      );
    }
    if (stat.size > MAX_RANGED_BYTES) {
      throw new ToolError(
        `${args.path} is ${formatBytes(stat.size)}, too large to read even in parts; use grep_files or run_command (head, tail, sed -n) instead.`,
      );
    }
    const buffer = await readVerified(file);
    if (looksBinary(buffer)) {
      throw new ToolError(
        `${args.path} looks binary (${formatBytes(buffer.length)}, contains NUL bytes); read_file shows text only. Use get_file_info for its size, or run_command with a tool such as xxd or file.`,
      );
    }
    ctx.baselines.recordRead(file, buffer);
    const text = buffer.toString('utf8');
    if (args.char_offset !== undefined || args.char_limit !== undefined) return charRange(text, args.char_offset ?? 0, args.char_limit);
    return lineRange(text, args.path, args.offset ?? 1, args.limit);
  },
});

/** Synchronous: a stat of a local file takes microseconds, its thread-pool round trip ~35 us of CPU. */
function statFile(file: string, shown: string) {
  try {
    const info = statSync(file);
    if (info.isDirectory()) throw new ToolError(`${shown} is a directory; use list_directory to see its entries`);
    return info;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new ToolError(`${shown} does not exist; check the path with list_directory or search_files`);
    throw error;
  }
}

function lineRange(text: string, shown: string, offset: number, limit: number | undefined): string {
  const { lines } = splitLines(text);
  if (lines.length === 0) return `(${shown} is empty)`;
  if (offset > lines.length) throw new ToolError(`offset ${offset} is past the end of ${shown}, which has ${lines.length} lines`);
  const end = limit === undefined ? lines.length : Math.min(lines.length, offset - 1 + limit);
  const body = numberLines(lines.slice(offset - 1, end), offset);
  if (body.length > READ_FILE_MAX_BYTES) throw new ToolError(`lines ${offset}-${end} of ${shown} come to over 1 MB; ask for fewer lines (limit)`);
  if (offset === 1 && end === lines.length) return body;
  return `${body}\n[lines ${offset}-${end} of ${lines.length}]`;
}

function charRange(text: string, start: number, limit: number | undefined): string {
  if (start > text.length) throw new ToolError(`char_offset ${start} is past the end of the file (${text.length} characters)`);
  const end = limit === undefined ? text.length : Math.min(text.length, start + limit);
  const slice = text.slice(start, end);
  if (end - start > READ_FILE_MAX_BYTES) throw new ToolError(`that character range is over 1 MB; ask for a smaller char_limit`);
  return `${slice}\n[characters ${start}-${end} of ${text.length}]`;
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}
