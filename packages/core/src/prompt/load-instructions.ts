import { join } from 'node:path';
import { instructionFileIn } from './instruction-files.js';

/**
 * The instructions of a session's system prompt, in order: the workspace's AGENTS.md, or its
 * CLAUDE.md when there is no AGENTS.md; then the user's own `<data-dir>/AGENTS.md`, which applies
 * to every project. Nested files in subfolders come later, with tool results (nested-instructions.ts).
 * Read at the start of each turn, so an edit counts from the next turn.
 */
export function loadInstructions(args: { cwd: string; dataDir?: string | undefined }): Array<{ source: string; text: string }> {
  const out: Array<{ source: string; text: string }> = [];
  const project = instructionFileIn(args.cwd, args.cwd);
  if (project) out.push({ source: `${project.name} in the workspace`, text: project.text });
  if (args.dataDir) {
    const user = instructionFileIn(args.dataDir);
    if (user?.name === 'AGENTS.md') out.push({ source: `your own ${join(args.dataDir, 'AGENTS.md')} (it applies to every project)`, text: user.text });
  }
  return out;
}
