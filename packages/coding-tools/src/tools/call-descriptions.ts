import { createPatch } from 'diff';
import { capSummary, oneLine } from '@tandem/shared';
import type { PreviewView } from '@tandem/core';

/**
 * The pieces file tools describe their calls with (their `summary` and `preview`): a path with its
 * lines, an edit as a unified diff, new content as its first lines.
 */

/** Lines of new content a preview shows before `… N more lines`. */
const PREVIEW_LINES = 40;

/** `src/a.ts:3-5` (summary form). */
export function pathWithLines(path: string, start?: number, end?: number): string {
  if (start === undefined) return capSummary(oneLine(path));
  return capSummary(oneLine(end === undefined ? `${path}:${start}` : `${path}:${start}-${end}`));
}

/** ` (lines 3–5)` or ` (line 2)` (preview form); empty without a start. */
export function linesClause(start?: number, end?: number): string {
  if (start === undefined) return '';
  return end === undefined ? ` (line ${start})` : ` (lines ${start}–${end})`;
}

/** An edit as a unified diff of its old and new text, headed by the path. */
export function diffPreview(view: PreviewView, path: string, oldText: string, newText: string): string {
  const patch = createPatch(view.showPath(path), oldText, newText, undefined, undefined, { context: 2 });
  return patch
    .split('\n')
    .filter((line) => !line.startsWith('Index:') && !/^=+$/.test(line))
    .join('\n');
}

/** The path (and lines), then the first lines of the new content. */
export function contentPreview(view: PreviewView, path: string, content: string, where = ''): string {
  const lines = content.split('\n');
  const head = lines.slice(0, PREVIEW_LINES).join('\n');
  const more = lines.length > PREVIEW_LINES ? `\n… ${lines.length - PREVIEW_LINES} more lines` : '';
  return `${view.showPath(path)}${where}\n${head}${more}`;
}
