import { COMMANDER } from '../state/agents.js';
import { bold, color, esc } from './tags.js';

/** Colours agents are drawn in (the commander is green; a worker's colour follows from its name). */
const PALETTE = ['magenta', 'cyan', 'yellow', 'blue', 'red'] as const;

export function agentColor(name: string): string {
  if (name === COMMANDER) return 'green';
  let hash = 0;
  for (let i = 0; i < name.length; i++) hash = (hash * 31 + name.charCodeAt(i)) >>> 0;
  return PALETTE[hash % PALETTE.length] ?? 'magenta';
}

/** `[reviewer]` in the agent's colour. */
export function agentLabel(name: string): string {
  return bold(color(agentColor(name), `[${esc(name)}]`));
}

/** The gutter in front of every line of a worker's items, so interleaved workers stay apart. */
export function workerGutter(name: string): string {
  return color(agentColor(name), '│ ');
}
