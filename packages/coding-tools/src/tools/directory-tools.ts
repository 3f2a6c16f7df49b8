import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { pathWithLines } from './call-descriptions.js';
import { formatBytes } from './read-file.js';
import { defineTool, ToolError } from '@tandem/core';

export const LIST_DIRECTORY_MAX_ENTRIES = 1000;

export const listDirectoryTool = defineTool({
  name: 'list_directory',
  description: `Lists one directory's entries, sorted by name, one per line; directories end with "/" and symbolic links with "@". At most ${LIST_DIRECTORY_MAX_ENTRIES} entries are shown, then a count of the rest.
Prefer search_files to find files by name pattern across subdirectories, grep_files to find text inside files.`,
  schema: z.object({
    path: z.string().optional().describe('Directory to list; default: the workspace root'),
  }),
  danger: 'safe',
  readOnly: true,
  kind: 'read',
  subject: (args) => (args.path ? { path: args.path } : undefined),
  summary: (args) => pathWithLines(args.path ?? '.'),
  file: { path: 'path' },
  paths: (args) => [{ path: args.path ?? '.', intent: 'read' }],
  async execute(args, ctx) {
    const shown = args.path ?? '.';
    const dir = await ctx.paths.resolve(shown, 'read');
    let entries;
    try {
      entries = await fs.readdir(dir, { withFileTypes: true });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') throw new ToolError(`${shown} does not exist`);
      if (code === 'ENOTDIR') throw new ToolError(`${shown} is a file, not a directory; use read_file or get_file_info`);
      throw error;
    }
    if (entries.length === 0) return `(${shown} is empty)`;
    const names = entries.map((e) => e.name + (e.isDirectory() ? '/' : e.isSymbolicLink() ? '@' : '')).sort((a, b) => a.localeCompare(b));
    const shownNames = names.slice(0, LIST_DIRECTORY_MAX_ENTRIES);
    const rest = names.length - shownNames.length;
    return rest > 0 ? `${shownNames.join('\n')}\n… ${rest} more` : shownNames.join('\n');
  },
});

export const getFileInfoTool = defineTool({
  name: 'get_file_info',
  description: `Reports a path's type (file, directory, symlink), size, permission mode (octal) and modification time, without reading the content.
Prefer read_file to see a file's content, list_directory for a directory's entries.`,
  schema: z.object({ path: z.string().describe('File or directory path') }),
  danger: 'safe',
  readOnly: true,
  kind: 'read',
  subject: (args) => ({ path: args.path }),
  summary: (args) => pathWithLines(args.path),
  file: { path: 'path' },
  paths: (args) => [{ path: args.path, intent: 'read' }],
  async execute(args, ctx) {
    const real = await ctx.paths.resolve(args.path, 'read');
    const info = await fs.stat(real).catch(() => undefined);
    if (!info) throw new ToolError(`${args.path} does not exist`);
    const lexical = path.resolve(ctx.cwd, args.path);
    const link = await fs.lstat(lexical).catch(() => undefined);
    const type = link?.isSymbolicLink() ? 'symlink' : info.isDirectory() ? 'directory' : info.isFile() ? 'file' : 'other';
    const lines = [
      `path: ${real}`,
      `type: ${type}${type === 'symlink' ? ` (to ${info.isDirectory() ? 'a directory' : 'a file'} at ${real})` : ''}`,
      `size: ${info.size} bytes (${formatBytes(info.size)})`,
      `mode: ${(info.mode & 0o7777).toString(8).padStart(4, '0')}`,
      `modified: ${info.mtime.toISOString()}`,
    ];
    return lines.join('\n');
  },
});
