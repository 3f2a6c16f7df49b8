import path from 'node:path';
import { glob } from 'tinyglobby';
import { z } from 'zod';
import { capSummary, oneLine } from '@tandem/shared';
import { defineTool, ToolError } from '@tandem/core';

export const SEARCH_FILES_MAX_RESULTS = 500;
const DEFAULT_SKIPPED = ['**/.git/**', '**/node_modules/**'];

export const searchFilesTool = defineTool({
  name: 'search_files',
  description: `Finds files (and optionally directories) by glob pattern, e.g. "**/*.ts", "src/**/test_*.py", "**/README*". Paths are relative to the searched directory, sorted; at most ${SEARCH_FILES_MAX_RESULTS} are listed, then a count. .git and node_modules are skipped unless include_ignored is true. Symbolic links are not followed.
Prefer grep_files to find files by their content, list_directory to see one directory.`,
  schema: z.object({
    pattern: z.string().min(1).describe('Glob pattern, relative to path'),
    path: z.string().optional().describe('Directory to search; default: the workspace root'),
    include_directories: z.boolean().optional().describe('Also list matching directories'),
    include_ignored: z.boolean().optional().describe('Also search inside .git and node_modules'),
  }),
  danger: 'safe',
  readOnly: true,
  kind: 'search',
  subject: (args) => (args.path ? { path: args.path } : undefined),
  summary: (args) => capSummary(oneLine(args.pattern)),
  file: { path: 'path' },
  paths: (args) => [{ path: args.path ?? '.', intent: 'read' }],
  async execute(args, ctx) {
    if (path.isAbsolute(args.pattern) || args.pattern.split('/').includes('..')) {
      throw new ToolError('the pattern must be relative and must not climb with ".."; set path to the directory to search instead');
    }
    const shown = args.path ?? '.';
    const root = await ctx.paths.resolve(shown, 'read');
    const matches = await glob(args.pattern, {
      cwd: root,
      dot: true,
      followSymbolicLinks: false,
      onlyFiles: !args.include_directories,
      ignore: args.include_ignored ? [] : DEFAULT_SKIPPED,
      expandDirectories: false,
      signal: ctx.signal,
    });
    if (matches.length === 0) return `No files match ${args.pattern} in ${shown}.`;
    matches.sort();
    const listed = matches.slice(0, SEARCH_FILES_MAX_RESULTS);
    const rest = matches.length - listed.length;
    return rest > 0 ? `${listed.join('\n')}\n… ${rest} more (narrow the pattern)` : listed.join('\n');
  },
});
