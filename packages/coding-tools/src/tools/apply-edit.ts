import fs from 'node:fs/promises';
import { createPatch } from 'diff';
import { readVerified, writeVerified } from '../sandbox/safe-open.js';
import { looksBinary } from './text-lines.js';
import { ToolError, type ToolContext } from '@tandem/core';

/** Unified diffs longer than this are cut in the tool result (the edit itself is complete). */
const MAX_PREVIEW_CHARS = 6000;

/**
 * The shared path of every editing tool: resolve, require a fresh read (requirements A8), transform the
 * text, write it through a verified descriptor, record the new baseline, and answer with a
 * summary plus a unified-diff preview.
 */
export async function applyEdit(ctx: ToolContext, shownPath: string, transform: (text: string) => { text: string; summary: string }): Promise<string> {
  const file = await ctx.paths.resolve(shownPath, 'write');
  const info = await fs.stat(file).catch(() => undefined);
  if (!info) throw new ToolError(`${shownPath} does not exist; create it with write_file`);
  if (info.isDirectory()) throw new ToolError(`${shownPath} is a directory, not a file`);
  await ctx.baselines.assertFresh(file);
  const buffer = await readVerified(file);
  if (looksBinary(buffer)) throw new ToolError(`${shownPath} looks binary; the editing tools change text files only`);
  const before = buffer.toString('utf8');
  const { text: after, summary } = transform(before);
  if (after === before) return `${summary}; the file is unchanged.`;
  await writeVerified(file, after, info.mode & 0o777);
  ctx.baselines.recordWrite(file, after);
  return `${summary}\n${diffPreview(shownPath, before, after)}`;
}

export function diffPreview(name: string, before: string, after: string): string {
  const patch = createPatch(name, before, after, 'before', 'after', { context: 3 });
  // Drop the "Index:" and "====" header lines; keep ---/+++ and the hunks.
  const body = patch.split('\n').slice(2).join('\n').trimEnd();
  if (body.length <= MAX_PREVIEW_CHARS) return body;
  return `${body.slice(0, MAX_PREVIEW_CHARS)}\n… (diff preview cut at ${MAX_PREVIEW_CHARS} characters; read the file to see the rest)`;
}
