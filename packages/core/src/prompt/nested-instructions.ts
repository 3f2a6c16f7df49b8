import { statSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import type { Message } from '@tandem/ai';
import { inside, type InstructionFile, instructionFileIn } from './instruction-files.js';

/**
 * AGENTS.md (or CLAUDE.md) files in subfolders of the workspace: each applies to work under its
 * folder. The root's is in the system prompt; a nested one is given to the model with the result
 * of the first tool call that touches a path under its folder (read, list, search, edit, write),
 * outermost first, and again only once the conversation no longer holds it (cleared or compacted).
 * Appending to a tool result keeps every earlier request byte for byte, so prompt caches still hit.
 */
export class NestedInstructions {
  /** Folder (absolute) → its instruction file, or null; asked once per turn (one object per turn). */
  private readonly found = new Map<string, InstructionFile | null>();

  constructor(private readonly workspace: string) {}

  /**
   * The text to append to a call's result for the folders of `paths` (workspace-relative or
   * absolute), or '' when every file that applies is already in `conversation`.
   */
  forPaths(paths: readonly string[], conversation: readonly Message[]): string {
    const files: InstructionFile[] = [];
    for (const path of paths) {
      for (const file of this.filesFor(path)) if (!files.includes(file)) files.push(file);
    }
    const fresh = files.filter((file) => !conversation.some((message) => message.role === 'tool' && message.output.includes(this.marker(file))));
    return fresh.map((file) => `${this.marker(file)}\n${file.text.trim()}`).join('\n\n');
  }

  /** The line that opens a file's instructions in a tool result (and tells whether it is still in the conversation). */
  marker(file: InstructionFile): string {
    const rel = relative(this.workspace, file.file).split(sep).join('/');
    const folder = rel.slice(0, rel.length - file.name.length - 1);
    return `[Instructions from ${rel}: they apply to work under ${folder}/, on top of the project's instructions]`;
  }

  /** Instruction files between the workspace (not included: it is in the prompt) and the path's folder, outermost first. */
  private filesFor(path: string): InstructionFile[] {
    const absolute = isAbsolute(path) ? resolve(path) : resolve(this.workspace, path);
    if (!inside(absolute, this.workspace)) return [];
    let dir = isDirectory(absolute) ? absolute : dirname(absolute);
    const chain: InstructionFile[] = [];
    while (dir !== this.workspace && inside(dir, this.workspace)) {
      const file = this.lookup(dir);
      if (file) chain.unshift(file);
      dir = dirname(dir);
    }
    return chain;
  }

  private lookup(dir: string): InstructionFile | null {
    let file = this.found.get(dir);
    if (file === undefined) {
      file = instructionFileIn(dir, this.workspace) ?? null;
      this.found.set(dir, file);
    }
    return file;
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
