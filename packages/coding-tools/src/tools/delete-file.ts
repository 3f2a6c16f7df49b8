import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { pathWithLines } from './call-descriptions.js';
import { SandboxError, defineTool, ToolError } from '@tandem/core';

/** Names a protected location may have (see PROTECTED_WORKSPACE_ENTRIES). */
const PROTECTED_NAMES = new Set(['.mcp.json', '.claude', '.agents', '.tandem', 'hooks', 'config', 'config.worktree']);

export const deleteFileTool = defineTool({
  name: 'delete_file',
  description: `Deletes a file, a symbolic link (the link, not its target), or a directory. A non-empty directory needs recursive: true. Anything named .git or inside a .git directory is protected, as is a directory that contains a git repository, and the workspace root itself.
Prefer edit_file or delete_lines to remove part of a file; use run_command with git for version-controlled moves (git rm, git mv).`,
  schema: z.object({
    path: z.string().describe('Path to delete, relative to the workspace or absolute'),
    recursive: z.boolean().optional().describe('Required to delete a directory that is not empty'),
  }),
  danger: 'dangerous',
  readOnly: false,
  kind: 'delete',
  subject: (args) => ({ path: args.path }),
  summary: (args) => pathWithLines(args.path),
  file: { path: 'path' },
  // The parent is checked; so is the entry itself when its name may be a protected location (`.mcp.json`, `.claude`, `hooks`…), before anyone is asked.
  paths: (args) => {
    const trimmed = args.path.replace(/[\\/]+$/, '');
    const parent = { path: path.dirname(trimmed), intent: 'write' as const };
    return PROTECTED_NAMES.has(path.basename(trimmed).toLowerCase()) ? [parent, { path: trimmed, intent: 'write' as const }] : [parent];
  },
  async execute(args, ctx) {
    const trimmed = args.path.replace(/[\\/]+$/, '');
    const name = path.basename(trimmed);
    if (name === '' || name === '.' || name === '..') throw new ToolError(`"${args.path}" does not name a file or directory to delete`);
    // The sandbox checks the parent; the entry itself is deleted as it is (a link is not followed).
    const parent = await ctx.paths.resolve(path.dirname(trimmed), 'write');
    const target = path.join(parent, name);

    const workspace = await ctx.paths.resolve('.', 'read');
    if (target === workspace || workspace.startsWith(target + path.sep))
      throw new ToolError(`refusing to delete ${args.path}: it is the workspace or contains it`);
    if (target.split(path.sep).includes('.git')) throw new ToolError(`refusing to delete ${args.path}: .git directories and everything in them are protected`);
    // The entry itself may be protected (.mcp.json, .claude…): the sandbox says so; other rules were checked on the parent.
    await ctx.paths.resolve(target, 'write').catch((err: unknown) => {
      if (err instanceof SandboxError && err.rule === 'protected_path') throw err;
    });
    const info = await fs.lstat(target).catch(() => undefined);
    if (!info) throw new ToolError(`${args.path} does not exist`);
    if (!info.isDirectory()) {
      await fs.unlink(target);
      return `Deleted ${info.isSymbolicLink() ? 'symbolic link' : 'file'} ${args.path}.`;
    }
    const entries = await fs.readdir(target);
    if (entries.length > 0 && !args.recursive) {
      throw new ToolError(`${args.path} is a directory with ${entries.length} entries; pass recursive: true to delete it and everything in it`);
    }
    const nestedGit = await findGitDirectory(target);
    if (nestedGit)
      throw new ToolError(`refusing to delete ${args.path}: it contains the git repository data ${path.relative(parent, nestedGit)}, which is protected`);
    const counted = await countEntries(target);
    await fs.rm(target, { recursive: true, force: false });
    return `Deleted directory ${args.path} (${counted.files} files, ${counted.dirs} subdirectories).`;
  },
});

async function findGitDirectory(dir: string): Promise<string | undefined> {
  const entries = await fs.readdir(dir, { withFileTypes: true });
  for (const entry of entries) {
    if (entry.name === '.git') return path.join(dir, entry.name);
    if (entry.isDirectory()) {
      const found = await findGitDirectory(path.join(dir, entry.name));
      if (found) return found;
    }
  }
  return undefined;
}

async function countEntries(dir: string): Promise<{ files: number; dirs: number }> {
  const totals = { files: 0, dirs: 0 };
  for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      totals.dirs++;
      const inner = await countEntries(path.join(dir, entry.name));
      totals.files += inner.files;
      totals.dirs += inner.dirs;
    } else totals.files++;
  }
  return totals;
}
