import type { TurnMemory } from '@tandem/core';

/** System prompts kept per session: one per set of offered tools (the commander's, each agent's, search only). */
const PROMPTS_KEPT = 16;

/**
 * What a session's system prompt is made of, frozen for the session: the engine's prompt (the
 * date, AGENTS.md, the tools by name) and the memory section of each agent's conversation.
 * Unchanged, every request of the session starts with the same bytes, which a provider's prompt
 * cache reads instead of billing again; a per-turn date or a memory section recalled for each
 * message would change the start of every request and every turn would pay the whole prompt.
 *
 * A prompt is made anew when what it describes changes (other tools offered, a tool set up) and
 * after `refresh()`: `/new`, `/clear`, or an explicit reload. Workers are not frozen: each run is
 * its own short conversation and recalls memory for its own task.
 */
export class FrozenPrompts {
  private readonly systems = new Map<string, Promise<string>>();
  private readonly memories = new Map<string, Promise<string | undefined>>();

  /** The prompt for this set of tools (`key`): the one made first since the last refresh. */
  system(key: string, make: () => Promise<string>): Promise<string> {
    let prompt = this.systems.get(key);
    if (!prompt) {
      prompt = make();
      // A prompt that could not be made is not kept: the next turn tries again.
      prompt.catch(() => this.systems.delete(key));
      if (this.systems.size >= PROMPTS_KEPT) this.systems.delete(this.systems.keys().next().value as string);
      this.systems.set(key, prompt);
    }
    return prompt;
  }

  /**
   * The memory of `holder`'s conversation (the commander, or a defined agent): the section recalled
   * for its first message since the last refresh, then that same section for every later turn.
   */
  memory(holder: string, memory: TurnMemory): TurnMemory {
    return {
      promptSection: (query, signal) => {
        let section = this.memories.get(holder);
        if (!section) {
          section = memory.promptSection(query, signal);
          // A failed or cancelled recall is not frozen: the next turn recalls again.
          section.catch(() => this.memories.delete(holder));
          this.memories.set(holder, section);
        }
        return section;
      },
    };
  }

  /** Forgets every frozen part: the next turn builds its prompt and recalls its memory anew. */
  refresh(): void {
    this.systems.clear();
    this.memories.clear();
  }
}
