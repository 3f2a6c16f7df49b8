import { createHash } from 'node:crypto';

export const SKILL_TOOL_PREFIX = 'skill__';
const MAX_TOOL_NAME = 64;

/** `skill__NAME`; a name that would pass 64 characters is cut and ends with a stable hash. */
export function skillToolName(name: string): string {
  const full = `${SKILL_TOOL_PREFIX}${name}`;
  if (full.length <= MAX_TOOL_NAME) return full;
  return `${full.slice(0, MAX_TOOL_NAME - 9)}_${createHash('sha256').update(name).digest('hex').slice(0, 8)}`;
}

/** The command line a call runs: the skill's command, then the call's arguments as written. */
export function skillCommandLine(command: string, args: string | undefined): string {
  const extra = args?.trim();
  return extra ? `${command} ${extra}` : command;
}
