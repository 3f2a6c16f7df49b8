/** The environment variable that holds an external agent's task. */
export const TASK_VARIABLE = 'TANDEM_TASK';
const TASK_WORD = `"$${TASK_VARIABLE}"`;

/**
 * An external agent's command line for one run (ARCHITECTURE "External packages, external
 * agents…"): `{task}` in the definition's `command:` (bare, or in quotes) becomes
 * `"$TANDEM_TASK"`, and the task itself goes in that variable — so the line the permission
 * request shows is the definition's, whatever the task says, and no task text is ever parsed
 * by the shell. Without `{task}` the task is appended as the last argument.
 */
export function externalCommandLine(command: string): string {
  const trimmed = command.trim();
  if (!trimmed.includes('{task}')) return `${trimmed} ${TASK_WORD}`;
  return trimmed.replace(/'\{task\}'|"\{task\}"|\{task\}/g, TASK_WORD);
}

/** The first word of a command line: the program an external agent runs (`claude`, `codex`). */
export function programOf(command: string): string {
  const word = command.trim().split(/\s+/)[0] ?? '';
  return word.split('/').pop() || word || 'command';
}
