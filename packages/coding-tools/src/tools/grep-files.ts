import fs from 'node:fs/promises';
import path from 'node:path';
import picomatch from 'picomatch';
import { z } from 'zod';
import { capSummary, oneLine } from '@tandem/shared';
import { walkFiles } from './gitignore-walk.js';
import { looksBinary } from './text-lines.js';
import { defineTool, ToolError } from '@tandem/core';

export const GREP_MAX_MATCHES = 100;
const MAX_LINE_CHARS = 300;
const MAX_FILE_BYTES = 5 * 1024 * 1024;

export const grepFilesTool = defineTool({
  name: 'grep_files',
  description: `Searches file contents with a regular expression (JavaScript syntax) and prints matches as "path:line: text", paths relative to the workspace. At most ${GREP_MAX_MATCHES} matches are shown, then only the number of further matches. Honours .gitignore files (nested ones too), skips .git, node_modules, binary files and files over 5 MB.
Prefer search_files to find files by name, read_file to read around a match.`,
  schema: z.object({
    pattern: z.string().min(1).describe('Regular expression to search for'),
    path: z.string().optional().describe('Directory (or file) to search; default: the workspace root'),
    glob: z
      .string()
      .optional()
      .describe('Only files whose path (relative to path) matches this glob, e.g. "**/*.ts"; without "/" it matches file names at any depth'),
    case_insensitive: z.boolean().optional(),
    include_ignored: z.boolean().optional().describe('Also search files that .gitignore excludes, and node_modules'),
  }),
  danger: 'safe',
  readOnly: true,
  kind: 'search',
  subject: (args) => (args.path ? { path: args.path } : undefined),
  summary: (args) => capSummary(oneLine(`/${args.pattern}/${args.glob ? ` in ${args.glob}` : ''}`)),
  file: { path: 'path' },
  paths: (args) => [{ path: args.path ?? '.', intent: 'read' }],
  async execute(args, ctx) {
    let regex: RegExp;
    try {
      regex = new RegExp(args.pattern, args.case_insensitive ? 'i' : '');
    } catch (error) {
      throw new ToolError(`invalid regular expression ${JSON.stringify(args.pattern)}: ${(error as Error).message}`);
    }
    const shown = args.path ?? '.';
    const root = await ctx.paths.resolve(shown, 'read');
    const top = await ctx.paths.resolve('.', 'read');
    const matchesGlob = args.glob ? picomatch(args.glob, { dot: true, basename: !args.glob.includes('/') }) : () => true;
    const info = await fs.stat(root).catch(() => undefined);
    if (!info) throw new ToolError(`${shown} does not exist`);
    const files = info.isDirectory() ? walkFiles(root, { top, includeIgnored: args.include_ignored, signal: ctx.signal }) : single(root);

    const shownLines: string[] = [];
    let total = 0;
    let filesSearched = 0;
    let skippedLarge = 0;
    for await (const file of files) {
      if (!matchesGlob(path.relative(root, file).split(path.sep).join('/') || path.basename(file))) continue;
      const stat = await fs.stat(file).catch(() => undefined);
      if (!stat) continue;
      if (stat.size > MAX_FILE_BYTES) {
        skippedLarge++;
        continue;
      }
      const buffer = await fs.readFile(file).catch(() => undefined);
      if (!buffer || looksBinary(buffer)) continue;
      filesSearched++;
      const rel = path.relative(top, file).split(path.sep).join('/') || path.basename(file);
      const lines = buffer.toString('utf8').split(/\r?\n/);
      for (let i = 0; i < lines.length; i++) {
        if (!regex.test(lines[i]!)) continue;
        total++;
        if (shownLines.length < GREP_MAX_MATCHES) shownLines.push(`${rel}:${i + 1}: ${clip(lines[i]!)}`);
      }
    }
    const notes: string[] = [];
    if (total > GREP_MAX_MATCHES) notes.push(`… ${total - GREP_MAX_MATCHES} more matches not shown (${total} in all); narrow the pattern or the glob`);
    if (skippedLarge > 0) notes.push(`(${skippedLarge} file(s) over 5 MB skipped)`);
    if (total === 0) return [`No matches for ${JSON.stringify(args.pattern)} in ${filesSearched} file(s) under ${shown}.`, ...notes].join('\n');
    return [...shownLines, ...notes].join('\n');
  },
});

async function* single(file: string): AsyncGenerator<string> {
  yield file;
}

function clip(line: string): string {
  const trimmed = line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}…` : line;
  return trimmed.trim();
}
