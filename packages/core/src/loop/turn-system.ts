import type { TurnOptions } from './types.js';

/**
 * The system prompt for the whole turn (requirements H5): the host's prompt plus the memory section
 * for the user's message, computed once here and frozen, so memory written during the turn
 * does not change the prompt until the next turn. Memory that cannot be read leaves the prompt
 * without it rather than failing the turn.
 */
export async function turnSystemPrompt(opts: Pick<TurnOptions, 'prompt' | 'user'>, signal: AbortSignal): Promise<string> {
  const { system, memory } = opts.prompt;
  if (!memory) return system;
  let section: string | undefined;
  try {
    section = (await memory.promptSection(opts.user.text, signal))?.trim();
  } catch {
    return system;
  }
  return section ? `${system}\n\n${section}` : system;
}
