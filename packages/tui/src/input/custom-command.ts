import type { CustomCommand } from '@tandem/shared';

/**
 * The words of a command's arguments: split at spaces, a "quoted phrase" or 'quoted phrase'
 * kept as one word (without its quotes).
 */
export function splitArguments(args: string): string[] {
  const words: string[] = [];
  for (const match of args.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) words.push(match[1] ?? match[2] ?? match[3] ?? '');
  return words;
}

/**
 * The prompt `/NAME args` sends: the command's body with `$ARGUMENTS` replaced by all of `args`
 * and `$1`, `$2`… by each word (an absent one by nothing), as in Claude Code and opencode. A body
 * that uses neither gets the arguments appended, so nothing typed is lost.
 */
export function expandCustomCommand(body: string, args: string): string {
  const all = args.trim();
  const words = splitArguments(all);
  const uses = /\$ARGUMENTS|\$\d/.test(body);
  // One pass, so arguments that hold `$1` are never read again as placeholders.
  const expanded = body.replace(/\$ARGUMENTS|\$(\d+)/g, (_, n: string | undefined) => (n === undefined ? all : (words[Number(n) - 1] ?? '')));
  if (uses || all === '') return expanded;
  return `${expanded}\n\nARGUMENTS: ${all}`;
}

/** The usable command of that name (case does not matter), if any. */
export function findCustomCommand(commands: readonly CustomCommand[], name: string): CustomCommand | undefined {
  const wanted = name.toLowerCase();
  return commands.find((command) => command.status === 'ok' && command.name.toLowerCase() === wanted);
}
