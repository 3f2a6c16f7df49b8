import { formatDuration } from '../state/format-duration.js';
import type { RunAgent, RunCall, RunSummaryItem } from '../state/types.js';
import { formatUsage } from './format-cost.js';
import { color, dim, esc } from './tags.js';

/** Widest the box gets (border included); longer lines are cut with … so the box never wraps. */
export const SUMMARY_MAX_WIDTH = 100;
const MIN_INNER = 40;

/** `[1] run_command("go test") → OK (2.1s)` */
export function formatRunCall(call: RunCall, index: number): string {
  const outcome = call.status === 'ok' ? 'OK' : call.status === 'error' ? 'ERROR' : call.status === 'stopped' ? 'STOPPED' : 'RUNNING';
  const took = call.durationMs !== undefined ? ` (${formatDuration(call.durationMs)})` : '';
  return `[${index + 1}] ${call.tool}(${JSON.stringify(call.summary)}) → ${outcome}${took}`;
}

/** `reviewer (task-1) → DONE · 3 iterations · 1,200 in / 300 out tokens · $0.0081` */
export function formatRunAgent(agent: RunAgent): string {
  const iterations = agent.iterations > 0 ? ` · ${agent.iterations} iteration${agent.iterations === 1 ? '' : 's'}` : '';
  const usage = agent.usage ? ` · ${formatUsage(agent.usage)}` : '';
  return `${agent.agent} (${agent.taskId}) → ${agent.status.toUpperCase()}${iterations}${usage}`;
}

const FINAL: Record<string, string> = {
  answered: 'Final answer produced',
  cancelled: 'Stopped: cancelled',
  interrupted: 'Stopped: interrupted',
  error: 'Stopped: a model error (see above)',
  max_iterations: 'Stopped: the iteration limit was reached',
  permission_timeout: 'Stopped: a permission request timed out',
  loop_stopped: 'Stopped: the same call repeated too often',
};

/**
 * The boxed run summary closing every turn (the agent-run box of the requirements): the model that answered,
 * the iterations, one line per tool call with its outcome and time, and the final line with
 * the tokens used (the parts read from and written to the prompt cache) and the cost. Plain text is measured before tags go on, so the right border lines up.
 */
export function formatRunSummary(item: RunSummaryItem): string[] {
  const rows: Array<{ text: string; tint?: string }> = [{ text: `Model: ${item.model}` }];
  if (item.iterations > 0) rows.push({ text: `Iterations: ${item.iterations}` });
  if (item.calls.length > 0) {
    rows.push({ text: '' });
    item.calls.forEach((call, index) => {
      const tint = call.status === 'ok' ? undefined : call.status === 'error' ? 'red' : 'yellow';
      rows.push({ text: formatRunCall(call, index), ...(tint ? { tint } : {}) });
    });
  }
  if (item.agents && item.agents.length > 0) {
    rows.push({ text: '' });
    for (const agent of item.agents) {
      const tint = agent.status === 'done' ? undefined : agent.status === 'error' ? 'red' : 'yellow';
      rows.push({ text: formatRunAgent(agent), ...(tint ? { tint } : {}) });
    }
  }
  rows.push({ text: '' });
  const usage = item.usage ? ` · ${formatUsage(item.usage)}` : '';
  const final = FINAL[item.outcome] ?? `Stopped: ${item.outcome}`;
  rows.push({ text: `${final}${usage}`, ...(item.outcome === 'answered' ? {} : { tint: 'yellow' }) });

  const title = item.agent ? `Agent run: ${item.agent}` : 'Agent run';
  const longest = Math.max(title.length + 3, ...rows.map((row) => row.text.length));
  const inner = Math.min(SUMMARY_MAX_WIDTH - 4, Math.max(MIN_INNER, longest));
  const top = dim(`┌─ ${title} ${'─'.repeat(Math.max(0, inner - title.length - 1))}┐`);
  const bottom = dim(`└${'─'.repeat(inner + 2)}┘`);
  const body = rows.map((row) => {
    const text = fit(row.text, inner);
    const shown = row.tint ? color(row.tint, esc(text)) : esc(text);
    return `${dim('│')} ${shown} ${dim('│')}`;
  });
  return [top, ...body, bottom];
}

function fit(text: string, width: number): string {
  const flat = text.replace(/[\t\r\n]/g, ' ');
  const cut = flat.length > width ? `${flat.slice(0, width - 1)}…` : flat;
  return cut.padEnd(width);
}
