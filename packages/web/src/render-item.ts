import { type AgentItem, COMMANDER, formatDuration, outputTail, type RunSummaryItem, type ToolItem, type TranscriptItem } from '@tandem/tui/state';
import { el } from './element.js';
import { renderMarkdown } from './markdown-view.js';
import { fullOutputs } from './full-outputs.js';

/** Live output lines shown under a running command. */
export const LIVE_LINES = 12;

/** One transcript item as a list entry. Text only (the model's markdown built from text nodes): model text and command output are untrusted. */
export function renderItem(item: TranscriptItem): HTMLLIElement {
  switch (item.kind) {
    case 'user':
      return el(
        'li',
        { class: 'item user' },
        el('span', { class: 'who' }, item.steer ? `${item.by} (steer)` : item.by),
        el('div', { class: 'text' }, item.text),
      );
    case 'assistant':
      return el(
        'li',
        { class: `item assistant${item.final ? '' : ' streaming'}${item.taskId ? ' worker' : ''}` },
        item.agent ? el('span', { class: 'agent' }, item.agent) : null,
        el('div', { class: 'text' }, ...renderMarkdown(item.text)),
      );
    case 'tool':
      return renderTool(item);
    case 'notice':
      return el('li', { class: `item notice ${item.level}` }, item.text);
    case 'run_summary':
      return renderSummary(item);
    case 'agent':
      return renderAgent(item);
  }
}

/** A worker's started / done line (the transcript leaves out an anonymous worker's other items). */
function renderAgent(item: AgentItem): HTMLLIElement {
  const head = item.phase === 'started' ? `started by ${item.parent}${item.visible ? '' : ' (anonymous, hidden)'}: ` : item.isError ? 'failed: ' : 'done: ';
  const status = item.phase === 'started' && item.status !== 'running' ? ` · ${item.status}` : '';
  return el('li', { class: `item agent-line ${item.phase} ${item.status}` }, el('span', { class: 'agent' }, item.agent), ` ${head}${item.text}${status}`);
}

function renderTool(item: ToolItem): HTMLLIElement {
  const took = item.durationMs !== undefined ? formatDuration(item.durationMs) : null;
  const head = el(
    'div',
    { class: 'tool-head' },
    item.agent && item.agent !== COMMANDER ? el('span', { class: 'agent' }, item.agent) : null,
    item.agent && item.agent !== COMMANDER ? ' ' : null,
    el('span', { class: 'tool-name' }, item.tool),
    ' ',
    el('code', { class: 'args' }, item.summary),
    ' ',
    el('span', { class: `badge ${item.status}` }, item.status),
    took && el('span', { class: 'took' }, ` ${took}`),
  );
  const node = el('li', { class: `item tool ${item.status}`, data: { callId: item.callId } }, head);
  if (item.reason) node.append(el('div', { class: 'reason' }, item.reason));
  if (item.permission) node.append(el('div', { class: `decision ${item.permission.allowed ? 'allowed' : 'denied'}` }, item.permission.text));
  if (item.live && (item.status === 'running' || !item.result)) {
    node.append(el('pre', { class: 'output live' }, outputTail(item.live, LIVE_LINES).join('\n')));
  }
  if (item.result && item.result.lines.length > 0) {
    const more = item.result.omitted > 0 ? `… ${item.result.omitted} more line${item.result.omitted === 1 ? '' : 's'}` : null;
    const lines = item.result.from === 'tail' ? [more, ...item.result.lines] : [...item.result.lines, more];
    node.append(el('pre', { class: 'output result' }, lines.filter((line) => line !== null).join('\n')));
    // The whole output unfolds under the excerpt, in its own scrolling block inside the card.
    const full = item.result.omitted > 0 ? fullOutputs.get(item.callId) : undefined;
    if (full !== undefined) {
      const count = item.result.lines.length + item.result.omitted;
      node.append(el('details', { class: 'more' }, el('summary', {}, `show all ${count} lines`), el('pre', { class: 'output full' }, full)));
    }
  }
  return node;
}

function renderSummary(item: RunSummaryItem): HTMLLIElement {
  const calls = item.calls.length;
  const tokens = item.usage ? ` · ${item.usage.inputTokens} in / ${item.usage.outputTokens} out tokens` : '';
  const iterations = item.iterations > 0 ? ` · ${item.iterations} iteration${item.iterations === 1 ? '' : 's'}` : '';
  const line = `${item.agent ? `${item.agent}: ` : ''}${item.outcome} · ${item.model}${iterations} · ${calls} tool call${calls === 1 ? '' : 's'}${tokens}`;
  return el('li', { class: `item summary ${item.outcome}` }, line);
}
