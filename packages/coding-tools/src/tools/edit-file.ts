import { z } from 'zod';
import { applyEdit } from './apply-edit.js';
import { contentPreview, diffPreview, linesClause, pathWithLines } from './call-descriptions.js';
import { contentLines, joinLines, splitLines } from './text-lines.js';
import { defineTool, ToolError } from '@tandem/core';

const description = `Changes part of an existing text file and returns a unified diff of the change. Two ways:
1. old_string + new_string: old_string must occur exactly once (copy it exactly, indentation included, without read_file's line-number prefixes; add surrounding lines to make it unique).
2. start_line + end_line + new_string: replaces those lines (an empty new_string deletes them).
The file must have been read in this session (read_file) and not changed since; after a successful edit you can edit again without re-reading.
Prefer write_file for new files or complete rewrites, insert_line to add lines without replacing any.`;

export const editFileTool = defineTool({
  name: 'edit_file',
  description,
  schema: z.object({
    path: z.string().describe('File path, relative to the workspace or absolute'),
    old_string: z.string().optional().describe('Exact text to replace'),
    new_string: z.string().describe('Replacement text'),
    start_line: z.number().int().min(1).optional().describe('First line of the range to replace (1-based)'),
    end_line: z.number().int().min(1).optional().describe('Last line of the range to replace (inclusive)'),
  }),
  danger: 'medium',
  readOnly: false,
  kind: 'edit',
  subject: (args) => ({ path: args.path }),
  summary: (args) => pathWithLines(args.path, args.start_line, args.end_line),
  preview: (args, view) =>
    args.old_string !== undefined
      ? diffPreview(view, args.path, args.old_string, args.new_string)
      : contentPreview(view, args.path, args.new_string, linesClause(args.start_line, args.end_line)),
  file: { path: 'path', line: 'start_line', oldText: 'old_string', newText: 'new_string' },
  paths: (args) => [{ path: args.path, intent: 'write' }],
  async execute(args, ctx) {
    const byString = args.old_string !== undefined;
    const byLines = args.start_line !== undefined || args.end_line !== undefined;
    if (byString === byLines) {
      throw new ToolError('give either old_string (text replacement) or start_line and end_line (line range replacement), not both and not neither');
    }
    if (byString) {
      const old = args.old_string!;
      if (old === '') throw new ToolError('old_string is empty; give the exact text to replace, or use insert_line to add text');
      return applyEdit(ctx, args.path, (text) => {
        // A CRLF file edited with LF text: match and write in the file's own line ending.
        const crlf = text.includes('\r\n') && !old.includes('\r\n') && old.includes('\n') && countOccurrences(text, old) === 0;
        const find = crlf ? old.replace(/\n/g, '\r\n') : old;
        const replacement = crlf ? args.new_string.replace(/\r?\n/g, '\r\n') : args.new_string;
        const count = countOccurrences(text, find);
        if (count === 0)
          throw new ToolError(
            `old_string does not occur in ${args.path}; read the file again and copy the text exactly (whitespace included, without line-number prefixes)`,
          );
        if (count > 1) throw new ToolError(`old_string appears ${count} times in ${args.path}; include more surrounding context to make it unique`);
        const at = text.indexOf(find);
        const line = text.slice(0, at).split('\n').length;
        return { text: text.slice(0, at) + replacement + text.slice(at + find.length), summary: `Edited ${args.path} at line ${line}` };
      });
    }
    const start = args.start_line ?? args.end_line!;
    const end = args.end_line ?? args.start_line!;
    if (end < start) throw new ToolError(`end_line ${end} is before start_line ${start}`);
    return applyEdit(ctx, args.path, (text) => {
      const split = splitLines(text);
      if (end > split.lines.length) throw new ToolError(`lines ${start}-${end} are past the end of ${args.path}, which has ${split.lines.length} lines`);
      const replacement = args.new_string === '' ? [] : contentLines(args.new_string);
      split.lines.splice(start - 1, end - start + 1, ...replacement);
      return { text: joinLines(split), summary: `Replaced lines ${start}-${end} of ${args.path} with ${replacement.length} line(s)` };
    });
  },
});

export function countOccurrences(text: string, needle: string): number {
  let count = 0;
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length)) count++;
  return count;
}
