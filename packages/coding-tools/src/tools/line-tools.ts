import { z } from 'zod';
import { applyEdit } from './apply-edit.js';
import { contentPreview, linesClause, pathWithLines } from './call-descriptions.js';
import { contentLines, joinLines, splitLines } from './text-lines.js';
import { defineTool, ToolError } from '@tandem/core';

export const insertLineTool = defineTool({
  name: 'insert_line',
  description: `Inserts content before a given line of an existing text file (line = number of lines + 1 appends at the end); existing lines are kept. Multi-line content is inserted as several lines. Returns a diff of the change.
The file must have been read in this session (read_file) and not changed since.
Prefer edit_file to change existing text, write_file to create a file.`,
  schema: z.object({
    path: z.string().describe('File path, relative to the workspace or absolute'),
    line: z.number().int().min(1).describe('The new content becomes this line number (1-based)'),
    content: z.string().describe('Text to insert (one or more lines)'),
  }),
  danger: 'medium',
  readOnly: false,
  kind: 'edit',
  subject: (args) => ({ path: args.path }),
  summary: (args) => pathWithLines(args.path, args.line),
  file: { path: 'path', line: 'line' },
  preview: (args, view) => contentPreview(view, args.path, args.content, linesClause(args.line)),
  paths: (args) => [{ path: args.path, intent: 'write' }],
  execute: (args, ctx) =>
    applyEdit(ctx, args.path, (text) => {
      const split = splitLines(text);
      if (args.line > split.lines.length + 1) {
        throw new ToolError(
          `line ${args.line} is past the end of ${args.path}, which has ${split.lines.length} lines; use ${split.lines.length + 1} to append`,
        );
      }
      const added = contentLines(args.content);
      split.lines.splice(args.line - 1, 0, ...added);
      if (split.lines.length === added.length) split.trailingNewline = true;
      return { text: joinLines(split), summary: `Inserted ${added.length} line(s) at line ${args.line} of ${args.path}` };
    }),
});

export const deleteLinesTool = defineTool({
  name: 'delete_lines',
  description: `Deletes a range of lines (1-based, inclusive) from an existing text file and returns a diff of the change.
The file must have been read in this session (read_file) and not changed since.
Prefer edit_file when you also want to put something in their place.`,
  schema: z.object({
    path: z.string().describe('File path, relative to the workspace or absolute'),
    start_line: z.number().int().min(1).describe('First line to delete'),
    end_line: z.number().int().min(1).describe('Last line to delete (inclusive)'),
  }),
  danger: 'medium',
  readOnly: false,
  kind: 'edit',
  subject: (args) => ({ path: args.path }),
  summary: (args) => pathWithLines(args.path, args.start_line, args.end_line),
  file: { path: 'path', line: 'start_line' },
  preview: (args, view) => `${view.showPath(args.path)}${linesClause(args.start_line, args.end_line)}`,
  paths: (args) => [{ path: args.path, intent: 'write' }],
  async execute(args, ctx) {
    if (args.end_line < args.start_line) throw new ToolError(`end_line ${args.end_line} is before start_line ${args.start_line}`);
    return applyEdit(ctx, args.path, (text) => {
      const split = splitLines(text);
      if (args.end_line > split.lines.length) {
        throw new ToolError(`lines ${args.start_line}-${args.end_line} are past the end of ${args.path}, which has ${split.lines.length} lines`);
      }
      split.lines.splice(args.start_line - 1, args.end_line - args.start_line + 1);
      const count = args.end_line - args.start_line + 1;
      return { text: joinLines(split), summary: `Deleted ${count} line(s) (${args.start_line}-${args.end_line}) from ${args.path}` };
    });
  },
});
