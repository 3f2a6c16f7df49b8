import type { TurnOptions } from './types.js';

/**
 * The system prompt for the whole turn (requirements H5): the host's prompt plus the memory section
 * for the user's message, computed once here and frozen, so memory written during the turn
 * does not change the prompt until the next turn. Memory that cannot be read leaves the prompt
 * without it rather than failing the turn.
 */
export async function turnSystemPrompt(opts: Pick<TurnOptions, 'system' | 'memory' | 'userText'>, signal: AbortSignal): Promise<string> {
  if (!opts.memory) return opts.system;
  let section: string | undefined;
  try {
    section = (await opts.memory.promptSection(opts.userText, signal))?.trim();
  } catch {
    return opts.system;
  }
  return section ? `${opts.system}\n\n${section}` : opts.system;
}
