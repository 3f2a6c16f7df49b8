import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { readVerified, writeVerified } from '../sandbox/safe-open.js';
import { contentPreview, pathWithLines } from './call-descriptions.js';
import { formatBytes } from './read-file.js';
import { defineTool, ToolError, type ToolContext } from '@tandem/core';

const description = `Creates a file, or replaces a file's whole content. Missing parent directories (inside the workspace) are created.
Overwriting an existing file requires having read it in this session (read_file), and it must not have changed since; the previous content is kept in "<file>.bak".
Prefer edit_file to change part of an existing file, insert_line / delete_lines for line-level changes; use write_file for new files or complete rewrites.`;

export const writeFileTool = defineTool({
  name: 'write_file',
  description,
  schema: z.object({
    path: z.string().describe('File path, relative to the workspace or absolute'),
    content: z.string().describe('The complete new content of the file'),
  }),
  danger: 'medium',
  readOnly: false,
  kind: 'edit',
  subject: (args) => ({ path: args.path }),
  summary: (args) => pathWithLines(args.path),
  preview: (args, view) => contentPreview(view, args.path, args.content),
  file: { path: 'path', content: 'content' },
  // The file, and the `.bak` an overwrite leaves beside it.
  paths: (args) => [
    { path: args.path, intent: 'write' },
    { path: `${args.path}.bak`, intent: 'write' },
  ],
  async execute(args, ctx) {
    const file = await ctx.paths.resolve(args.path, 'write');
    const existing = await fs.lstat(file).catch(() => undefined);
    if (existing?.isDirectory()) throw new ToolError(`${args.path} is a directory; give a file path`);
    if (!existing) {
      await ensureParent(file, args.path, ctx);
      await writeVerified(file, args.content);
      ctx.baselines.recordWrite(file, args.content);
      return `Created ${args.path} (${formatBytes(Buffer.byteLength(args.content))}).`;
    }
    await ctx.baselines.assertFresh(file);
    const previous = await readVerified(file);
    const backup = await ctx.paths.resolve(`${file}.bak`, 'write');
    await writeVerified(backup, previous, existing.mode & 0o777);
    await writeVerified(file, args.content, existing.mode & 0o777);
    ctx.baselines.recordWrite(file, args.content);
    return `Replaced ${args.path} (${formatBytes(previous.length)} → ${formatBytes(Buffer.byteLength(args.content))}); previous content saved to ${path.basename(file)}.bak.`;
  },
});

/** Creates missing parents, each checked by the sandbox (a parent could be a link elsewhere). */
export async function ensureParent(file: string, shown: string, ctx: ToolContext): Promise<void> {
  const parent = path.dirname(file);
  const info = await fs.stat(parent).catch(() => undefined);
  if (info?.isDirectory()) return;
  if (info) throw new ToolError(`cannot create ${shown}: ${parent} exists and is not a directory`);
  const checked = await ctx.paths.resolve(parent, 'write');
  await fs.mkdir(checked, { recursive: true });
}
