import { tokens } from './format-status.js';
import type { AgentItem } from '../state/types.js';
import { agentLabel, workerGutter } from './agent-label.js';
import { color, dim, esc } from './tags.js';

/** Characters of a task or result shown on a worker's line (the whole text is in the tool result). */
const LINE_CHARS = 160;

/**
 * A worker's started and done lines. The started line of an anonymous worker stands for all of
 * its items while they are hidden: it says how it is doing and that Ctrl-O shows its steps.
 */
export function formatAgentItem(item: AgentItem, showHidden: boolean): string[] {
  const label = agentLabel(item.agent);
  if (item.phase === 'started') {
    const state = startedState(item);
    const task = `${dim(`(by ${esc(item.parent)}):`)} ${esc(oneLine(item.text))}`;
    if (item.visible) return [`${color('cyan', '▶')} ${label} ${dim('started')} ${task}${state}`];
    const toggle = dim(showHidden ? ' · Ctrl-O hides its steps' : ' · hidden, Ctrl-O shows its steps');
    return [`${color('cyan', showHidden ? '▾' : '▸')} ${label} ${dim('anonymous worker')} ${task}${state}${toggle}`];
  }
  const facts = [
    item.iterations ? `${item.iterations} iteration${item.iterations === 1 ? '' : 's'}` : '',
    item.usage ? `${tokens(item.usage.inputTokens + item.usage.outputTokens)} tokens` : '',
  ]
    .filter(Boolean)
    .join(' · ');
  const head = item.isError ? color('red', '✗') : color('green', '■');
  const verb = item.isError ? color('red', 'failed') : dim('done');
  const text = item.isError ? color('red', esc(oneLine(item.text))) : esc(oneLine(item.text));
  const result = item.echoed ? '' : `${dim(':')} ${text}`;
  return [`${workerGutter(item.agent)}${head} ${label} ${verb}${facts ? dim(` · ${facts}`) : ''}${result}`];
}

function startedState(item: AgentItem): string {
  switch (item.status) {
    case 'running':
      return dim(' · running');
    case 'done':
      return color('green', ' · done');
    case 'error':
      return color('red', ' · failed');
    case 'stopped':
      return color('yellow', ' · stopped');
  }
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > LINE_CHARS ? `${flat.slice(0, LINE_CHARS - 1)}…` : flat;
}
