import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { formatBytes, isWithin, pathWithLines } from '@tandem/coding-tools';
import { defineTool, ToolError } from '@tandem/core';

/** Dependency and build output directories left out unless include_all. */
export const CLONE_SKIPPED_DIRECTORIES = new Set(['node_modules', 'dist', 'build', '.turbo', '.next', 'target', 'coverage']);

export const selfCloneTool = defineTool({
  name: 'self_clone',
  description: `Copies the whole workspace (including .git) to a new directory, e.g. to try a risky change on a copy. Skips node_modules and build outputs (dist, build, .turbo, .next, target, coverage) unless include_all is true. Symbolic links are copied as links. Reports the number of files and bytes copied.
The target must be outside the workspace (the one tool allowed to write there), not an existing non-empty directory, and not in a system, credential or Tandem data directory.
Prefer run_command with git (git worktree, git clone) when you only need another checkout of committed work.`,
  schema: z.object({
    target: z.string().min(1).describe('Absolute path of the new directory (or relative to the workspace)'),
    include_all: z.boolean().optional().describe('Also copy node_modules and build outputs'),
  }),
  danger: 'dangerous',
  readOnly: false,
  kind: 'other',
  subject: (args) => ({ path: args.target }),
  summary: (args) => pathWithLines(args.target),
  paths: (args) => [{ path: args.target, intent: 'write', outside: true }],
  async execute(args, ctx) {
    if (!ctx.paths.resolveOutsideWorkspace) {
      throw new ToolError('self_clone is not available: this host’s path sandbox cannot check targets outside the workspace');
    }
    const source = await ctx.paths.resolve('.', 'read');
    const target = await ctx.paths.resolveOutsideWorkspace(args.target, 'write');
    if (isWithin(target, source)) throw new ToolError(`the target ${target} is inside the workspace ${source}; choose a directory outside it`);
    if (isWithin(source, target)) throw new ToolError(`the target ${target} contains the workspace; choose a new, separate directory`);
    const existing = await fs.readdir(target).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      if (error.code === 'ENOTDIR') throw new ToolError(`the target ${target} is an existing file; choose a new directory`);
      throw error;
    });
    if (existing && existing.length > 0) throw new ToolError(`the target ${target} already exists and is not empty; choose a new directory`);
    await fs.mkdir(target, { recursive: true });
    const totals: CopyTotals = { files: 0, bytes: 0, links: 0, skipped: [], refused: [] };
    // Each entry goes through the sandbox, so a workspace that holds credentials or the data
    // directory (say, a home directory) never has them copied out.
    const allowed = (p: string) =>
      ctx.paths.resolve(p, 'read').then(
        () => true,
        () => false,
      );
    await copyTree(source, target, '', { includeAll: Boolean(args.include_all), allowed, signal: ctx.signal }, totals);
    const skipped =
      totals.skipped.length > 0 ? `; skipped ${totals.skipped.length} director${totals.skipped.length === 1 ? 'y' : 'ies'} (${summarize(totals.skipped)})` : '';
    const links = totals.links > 0 ? ` and ${totals.links} symbolic link(s)` : '';
    const refused = totals.refused.length > 0 ? `; left out ${totals.refused.length} path(s) the sandbox protects (${summarize(totals.refused)})` : '';
    return `Copied ${totals.files} files (${formatBytes(totals.bytes)})${links} from ${source} to ${target}${skipped}${refused}.`;
  },
});

interface CopyTotals {
  files: number;
  bytes: number;
  links: number;
  skipped: string[];
  refused: string[];
}

interface CopyOptions {
  includeAll: boolean;
  allowed(path: string): Promise<boolean>;
  signal: AbortSignal;
}

async function copyTree(from: string, to: string, rel: string, options: CopyOptions, totals: CopyTotals): Promise<void> {
  if (options.signal.aborted) throw new ToolError(`self_clone was cancelled; ${to} holds a partial copy`);
  const entries = await fs.readdir(from, { withFileTypes: true });
  for (const entry of entries) {
    const src = path.join(from, entry.name);
    const dst = path.join(to, entry.name);
    const relPath = rel ? `${rel}/${entry.name}` : entry.name;
    if (!entry.isSymbolicLink() && !(await options.allowed(src))) {
      totals.refused.push(relPath);
      continue;
    }
    if (entry.isDirectory()) {
      if (!options.includeAll && CLONE_SKIPPED_DIRECTORIES.has(entry.name)) {
        totals.skipped.push(relPath);
        continue;
      }
      await fs.mkdir(dst, { mode: (await fs.stat(src)).mode & 0o777 });
      await copyTree(src, dst, relPath, options, totals);
    } else if (entry.isSymbolicLink()) {
      await fs.symlink(await fs.readlink(src), dst);
      totals.links++;
    } else if (entry.isFile()) {
      await fs.copyFile(src, dst, fs.constants.COPYFILE_EXCL);
      totals.files++;
      totals.bytes += (await fs.stat(dst)).size;
    }
  }
}

function summarize(items: string[]): string {
  return items.length <= 5 ? items.join(', ') : `${items.slice(0, 5).join(', ')}, …`;
}
