import { memoryPromptSection, type MemoryPromptOptions, type MemoryPromptSources } from './memory-prompt.js';

/** Memory for the turn's system prompt: the section for the user's message, or nothing. */
export interface TurnMemory {
  promptSection(query: string, signal: AbortSignal): Promise<string | undefined>;
}

/**
 * `TurnOptions.prompt.memory` for a workspace's memory (a `WorkspaceMemory` fits): the loop asks it once
 * at turn start for the section matching the user's message and freezes it for the turn.
 */
export function turnMemory(sources: MemoryPromptSources, options: Omit<MemoryPromptOptions, 'signal'> = {}): TurnMemory {
  return {
    async promptSection(query, signal) {
      const section = await memoryPromptSection(query, sources, { ...options, signal });
      return section || undefined;
    },
  };
}
