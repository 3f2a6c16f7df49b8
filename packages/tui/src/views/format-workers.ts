import { COMMANDER, runningAgents } from '../state/agents.js';
import type { AgentRun, ViewState } from '../state/types.js';
import { agentColor } from './agent-label.js';
import { bold, color, dim, esc } from './tags.js';

/** Workers named one by one in the status line; more are counted. */
const NAMED_WORKERS = 3;

/**
 * The running workers for the status line: what each is doing, its iterations and tokens, e.g.
 * `2 workers: reviewer read_file it 2 1.2k · worker-1 thinking`; `short` is the count alone.
 */
export function workersPart(state: ViewState, tokens: (count: number) => string): { text: string; short: string } | null {
  const running = runningAgents(state);
  if (running.length === 0) return null;
  const count = `${running.length} worker${running.length === 1 ? '' : 's'}`;
  const named = running.slice(0, NAMED_WORKERS).map((run) => workerText(run, tokens));
  const more = running.length > NAMED_WORKERS ? dim(` +${running.length - NAMED_WORKERS}`) : '';
  return { text: `${color('cyan', `${count}:`)} ${named.join(dim(' · '))}${more}`, short: color('cyan', count) };
}

function workerText(run: AgentRun, tokens: (count: number) => string): string {
  const doing = run.activity === 'tool' ? (run.tool ?? 'tool') : run.activity === 'permission' ? `? ${run.tool ?? 'permission'}` : run.activity;
  const facts = [run.iterations > 0 ? `it ${run.iterations}` : '', run.usage ? tokens(run.usage.inputTokens + run.usage.outputTokens) : '']
    .filter(Boolean)
    .join(' ');
  return `${color(agentColor(run.agent), esc(run.agent))} ${esc(doing)}${facts ? dim(` ${facts}`) : ''}`;
}

/** `floor commander`, or the agent holding it, bright: un-addressed messages go there. */
export function floorPart(floor: string): string {
  return floor === COMMANDER ? dim('floor commander') : color('magenta', `floor ${bold(esc(floor))}`);
}
