import { z } from 'zod';
import type { ToolSpec } from '@tandem/ai';

/** Arguments of the `save_memory` call the consolidation model must make (requirements H1). */
export const SaveMemoryArgs = z.object({
  memory_update: z
    .string()
    .trim()
    .min(1, 'memory_update must hold the complete new long-term memory (markdown), not be empty')
    .describe(
      'The complete new long-term memory as markdown: the current memory merged with durable facts from this conversation. It replaces MEMORY.md entirely.',
    ),
  history_entry: z
    .string()
    .trim()
    .min(1, 'history_entry must be one dated paragraph, not empty')
    .describe(
      'One paragraph that starts with the date in brackets, e.g. "[2026-12-02 14:03]", saying what happened in this session, with the words someone would grep for later.',
    ),
});
export type SaveMemoryArgs = z.infer<typeof SaveMemoryArgs>;

export const SAVE_MEMORY_TOOL = 'save_memory';

export function saveMemorySpec(): ToolSpec {
  const parameters = z.toJSONSchema(SaveMemoryArgs, { target: 'draft-7', io: 'input' }) as Record<string, unknown>;
  delete parameters.$schema;
  return {
    name: SAVE_MEMORY_TOOL,
    description: 'Save the consolidated long-term memory and a dated history entry for this session. Call it exactly once.',
    parameters,
  };
}

/** "[YYYY-MM-DD HH:MM]" in UTC for `ms`. */
export function historyStamp(ms: number): string {
  const iso = new Date(ms).toISOString();
  return `[${iso.slice(0, 10)} ${iso.slice(11, 16)}]`;
}

/** The entry as stored: dated (the clock's stamp is added if the model left it out). */
export function datedEntry(entry: string, nowMs: number): string {
  const text = entry.trim();
  return /^\[\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}/.test(text) ? text : `${historyStamp(nowMs)} ${text}`;
}
