import { formatDuration } from '../state/arg-summary.js';
import { outputTail } from '../state/output-buffer.js';
import type { ToolItem, TranscriptItem } from '../state/types.js';
import { formatRunSummary } from './format-run-summary.js';

export { formatRunCall } from './format-run-summary.js';
import { bold, color, dim, esc } from './tags.js';

/** Live output lines shown under a running command. */
export const LIVE_LINES = 8;
/** Lines kept in the transcript widget; older ones scroll away for good. */
export const MAX_TRANSCRIPT_LINES = 3000;

// Items are immutable: an item object that did not change keeps its rendered lines.
const cache = new WeakMap<TranscriptItem, string[]>();

/** The transcript as blessed-tagged lines, newest last, at most MAX_TRANSCRIPT_LINES. */
export function formatTranscript(items: readonly TranscriptItem[]): string[] {
  const out: string[] = [];
  for (let i = items.length - 1; i >= 0 && out.length < MAX_TRANSCRIPT_LINES; i--) {
    const item = items[i] as TranscriptItem;
    let lines = cache.get(item);
    if (!lines) {
      lines = formatItem(item);
      cache.set(item, lines);
    }
    for (let j = lines.length - 1; j >= 0; j--) out.push(lines[j] as string);
  }
  out.reverse();
  return out.length > MAX_TRANSCRIPT_LINES ? out.slice(out.length - MAX_TRANSCRIPT_LINES) : out;
}

export function formatItem(item: TranscriptItem): string[] {
  switch (item.kind) {
    case 'user': {
      const who = bold(color('cyan', `${esc(item.by)}${item.steer ? ' ↪ steer' : ''} ›`));
      const [first = '', ...rest] = item.text.split(/\r?\n/);
      return ['', `${who} ${esc(first)}`, ...rest.map((line) => `  ${esc(line)}`)];
    }
    case 'assistant': {
      const lines = item.text.replace(/\s+$/, '').split(/\r?\n/).map(esc);
      if (!item.final) lines[lines.length - 1] = `${lines[lines.length - 1] ?? ''}${color('green', '▍')}`;
      return lines;
    }
    case 'tool':
      return formatTool(item);
    case 'notice':
      if (item.level === 'error') return [color('red', `✗ ${esc(item.text)}`)];
      if (item.level === 'warn') return [color('yellow', `! ${esc(item.text)}`)];
      return [dim(`· ${esc(item.text)}`)];
    case 'run_summary':
      return formatRunSummary(item);
  }
}

function formatTool(item: ToolItem): string[] {
  const danger = item.danger === 'safe' ? '' : dim(` [${item.danger}]`);
  const head = `${color('yellow', `⚙ ${esc(item.tool)}`)} ${esc(item.summary)}${danger}`;
  const lines = [head];
  if (item.reason) lines.push(dim(`  ↳ did not ask: ${esc(item.reason)}`));
  if (item.permission) lines.push(color(item.permission.allowed ? 'green' : 'yellow', `  ${item.permission.allowed ? '✔' : '⊘'} ${esc(item.permission.text)}`));
  if (item.status === 'running') {
    const live = item.live ? outputTail(item.live, LIVE_LINES) : [];
    for (const line of live) lines.push(dim(`  │ ${esc(line)}`));
    lines.push(dim('  … running'));
    return lines;
  }
  const took = item.durationMs !== undefined ? ` ${formatDuration(item.durationMs)}` : '';
  if (item.status === 'ok') lines.push(color('green', `  ✓${took}`));
  else if (item.status === 'error') lines.push(color('red', `  ✗ error${took}`));
  else lines.push(color('yellow', '  ■ stopped'));
  const result = item.result;
  if (result && result.omitted > 0 && result.from === 'tail') lines.push(dim(`  │ … (${result.omitted} earlier lines)`));
  for (const line of result?.lines ?? []) lines.push(dim(`  │ ${esc(line)}`));
  if (result && result.omitted > 0 && result.from === 'head') lines.push(dim(`  │ … (+${result.omitted} more lines)`));
  for (const image of result?.images ?? []) lines.push(color('cyan', `  │ ${esc(image)}`));
  return lines;
}
