import type { Command } from 'commander';
import { bashScript } from './bash-script.js';
import { completionTree } from './command-tree.js';
import { fishScript } from './fish-script.js';
import { zshScript } from './zsh-script.js';

/** The completion script for `shell`, from the program's commands as they are defined now. */
export function completionScript(program: Command, shell: 'bash' | 'zsh' | 'fish'): string {
  const tree = completionTree(program);
  if (shell === 'bash') return bashScript(tree);
  if (shell === 'zsh') return zshScript(tree);
  return fishScript(tree);
}
