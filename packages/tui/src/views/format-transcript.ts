import { formatDuration } from '../state/format-duration.js';
import { outputTail } from '../state/output-buffer.js';
import { COMMANDER, shownItem } from '../state/agents.js';
import type { ToolItem, TranscriptItem } from '../state/types.js';
import { agentLabel, workerGutter } from './agent-label.js';
import { formatAgentItem } from './format-agent-item.js';
import { markdownLines } from './format-markdown.js';
import { formatRunSummary } from './format-run-summary.js';

export { formatRunCall } from './format-run-summary.js';
import { bold, color, dim, esc } from './tags.js';

/** Live output lines shown under a running command. */
export const LIVE_LINES = 8;
/** Lines kept in the transcript widget; older ones scroll away for good. */
export const MAX_TRANSCRIPT_LINES = 3000;

// Items are immutable: an item object that did not change keeps its rendered lines (one cache
// per choice of showing anonymous workers, whose summary line says how to flip it).
const caches = { collapsed: new WeakMap<TranscriptItem, string[]>(), expanded: new WeakMap<TranscriptItem, string[]>() };

export interface TranscriptOptions {
  /** Draw anonymous workers' items (Ctrl-O); without it each shows as its one summary line. */
  showHidden?: boolean;
}

/** The transcript as blessed-tagged lines, newest last, at most MAX_TRANSCRIPT_LINES. */
export function formatTranscript(items: readonly TranscriptItem[], options: TranscriptOptions = {}): string[] {
  const showHidden = options.showHidden ?? false;
  const cache = showHidden ? caches.expanded : caches.collapsed;
  const out: string[] = [];
  for (let i = items.length - 1; i >= 0 && out.length < MAX_TRANSCRIPT_LINES; i--) {
    const item = items[i] as TranscriptItem;
    if (!shownItem(item, showHidden)) continue;
    let lines = cache.get(item);
    if (!lines) {
      lines = formatItem(item, showHidden);
      cache.set(item, lines);
    }
    for (let j = lines.length - 1; j >= 0; j--) out.push(lines[j] as string);
  }
  out.reverse();
  return out.length > MAX_TRANSCRIPT_LINES ? out.slice(out.length - MAX_TRANSCRIPT_LINES) : out;
}

export function formatItem(item: TranscriptItem, showHidden = false): string[] {
  switch (item.kind) {
    case 'user': {
      const who = bold(color('cyan', `${esc(item.by)}${item.steer ? ' ↪ steer' : ''} ›`));
      const [first = '', ...rest] = item.text.split(/\r?\n/);
      return ['', `${who} ${esc(first)}`, ...rest.map((line) => `  ${esc(line)}`)];
    }
    case 'assistant': {
      const lines = markdownLines(item.text);
      if (!item.final) lines[lines.length - 1] = `${lines[lines.length - 1] ?? ''}${color('green', '▍')}`;
      if (item.agent) lines[0] = `${agentLabel(item.agent)} ${lines[0] ?? ''}`;
      return item.taskId && item.agent ? withGutter(item.agent, lines) : lines;
    }
    case 'tool': {
      // The commander's calls go unlabelled (its text above them is labelled); every other agent's are.
      const lines = formatTool(item);
      if (!item.agent || item.agent === COMMANDER) return lines;
      lines[0] = `${agentLabel(item.agent)} ${lines[0] ?? ''}`;
      return item.taskId ? withGutter(item.agent, lines) : lines;
    }
    case 'agent':
      return formatAgentItem(item, showHidden);
    case 'notice': {
      const head =
        item.level === 'error'
          ? color('red', `✗ ${esc(item.text)}`)
          : item.level === 'warn'
            ? color('yellow', `! ${esc(item.text)}`)
            : dim(`· ${esc(item.text)}`);
      // Lines to copy stand alone from the first column, with nothing around them to trim.
      return [head, ...(item.copy ?? []).flatMap((line) => [dim(`  ${esc(line.label)}:`), esc(line.text)])];
    }
    case 'run_summary':
      return formatRunSummary(item);
  }
}

/** A worker's lines behind a gutter in its colour. */
function withGutter(agent: string, lines: string[]): string[] {
  const gutter = workerGutter(agent);
  return lines.map((line) => `${gutter}${line}`);
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
