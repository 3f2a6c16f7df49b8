import type { Command } from 'commander';

/** One command as completion sees it: its subcommands and its options (with or without a value). */
export interface CompletionNode {
  name: string;
  description: string;
  /** Words from the root to here, e.g. `['mcp', 'add']` (empty for the root). */
  path: string[];
  options: CompletionOption[];
  children: CompletionNode[];
}

export interface CompletionOption {
  /** `--url`, `-c` … every spelling. */
  flags: string[];
  description: string;
  /** The option is followed by a value (the next word is not a command). */
  takesValue: boolean;
}

/**
 * The command tree as commander holds it, so completion scripts follow the commands as they are
 * defined: a command added later appears in the scripts by itself. Hidden commands and options
 * are left out; `--help` and `help` are added as everywhere.
 */
export function completionTree(program: Command): CompletionNode {
  return node(program, []);
}

function node(command: Command, path: string[]): CompletionNode {
  const options: CompletionOption[] = command.options
    .filter((option) => !option.hidden)
    .map((option) => ({
      flags: [option.long, option.short].filter((flag): flag is string => typeof flag === 'string'),
      description: oneLine(option.description),
      takesValue: option.required,
    }));
  options.push({ flags: ['--help', '-h'], description: 'show help', takesValue: false });
  const children = command.commands
    .filter((child) => !(child as unknown as { _hidden?: boolean })._hidden)
    .map((child) => node(child, [...path, child.name()]));
  if (path.length === 0 && children.length > 0 && !children.some((child) => child.name === 'help')) {
    children.push({ name: 'help', description: 'show help for tandem or for one command', path: ['help'], options: [], children: [] });
  }
  return { name: command.name(), description: oneLine(command.description()), path, options, children };
}

/** Every node, the root first, parents before children. */
export function allNodes(root: CompletionNode): CompletionNode[] {
  return [root, ...root.children.flatMap(allNodes)];
}

/** Every option spelling (any command) that takes a value. */
export function valueFlags(root: CompletionNode): string[] {
  return [...new Set(allNodes(root).flatMap((n) => n.options.filter((o) => o.takesValue).flatMap((o) => o.flags)))].sort();
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 80 ? `${flat.slice(0, 79)}…` : flat;
}
