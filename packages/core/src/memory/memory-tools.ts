import { z } from 'zod';
import { defineTool, ToolError, type AnyTool, type ToolContext } from '../tools/define.js';
import { HistoryPatternError } from './history-search.js';
import { memoryServiceOf, type MemoryService } from './memory-service.js';
import { capSummary, oneLine } from '@tandem/shared';

function service(ctx: ToolContext): MemoryService {
  const memory = memoryServiceOf(ctx.services);
  if (!memory) throw new ToolError('memory is not available in this session (the host did not open a memory store for this workspace)');
  return memory;
}

export const searchHistoryTool = defineTool({
  name: 'search_history',
  description:
    'Search HISTORY.md, the dated log of earlier sessions in this workspace, for a word or a regular expression. Returns matching entries, newest first. Use it to find what was done or decided in past sessions; use recall_memory for saved notes about the user and the project.',
  schema: z.object({
    pattern: z.string().min(1).max(500).describe('Text to look for (case-insensitive), or a regular expression when regex is true'),
    regex: z.boolean().optional().describe('Treat pattern as a JavaScript regular expression'),
    limit: z.number().int().min(1).max(100).optional().describe('At most this many entries (default 20)'),
  }),
  danger: 'safe',
  readOnly: true,
  kind: 'search',
  summary: (args) => capSummary(oneLine(args.pattern)),
  async execute(args, ctx) {
    let result;
    try {
      result = await service(ctx).searchHistory(args.pattern, { regex: args.regex ?? false, limit: args.limit ?? 20 });
    } catch (err) {
      if (err instanceof HistoryPatternError) throw new ToolError(err.message);
      throw err;
    }
    if (result.total === 0) return `No history entry matches "${args.pattern}".`;
    const shown = result.matches.map((m) => `HISTORY.md:${m.line}\n${m.entry}`).join('\n\n');
    const more =
      result.total > result.matches.length ? `\n\n(${result.total - result.matches.length} more matching entries not shown; narrow the pattern)` : '';
    return `${result.total} matching entr${result.total === 1 ? 'y' : 'ies'}:\n\n${shown}${more}`;
  },
});

export const recallMemoryTool = defineTool({
  name: 'recall_memory',
  description:
    'Look up saved memory items (agent notes and the user profile) relevant to a query. Keyword search, plus semantic similarity when an embeddings endpoint is configured.',
  schema: z.object({
    query: z.string().min(1).max(1000).describe('What to look for'),
    kind: z.enum(['note', 'profile']).optional().describe('Only this kind of item'),
    limit: z.number().int().min(1).max(20).optional().describe('At most this many items (default 8)'),
  }),
  danger: 'safe',
  readOnly: true,
  kind: 'search',
  summary: (args) => capSummary(oneLine(args.query)),
  async execute(args, ctx) {
    const result = await service(ctx).recall(args.query, { limit: args.limit ?? 8, ...(args.kind ? { kind: args.kind } : {}), signal: ctx.signal });
    const head = `mode: ${result.mode}${result.note ? ` (${result.note})` : ''}`;
    if (result.items.length === 0) return `${head}\nNo memory item matches "${args.query}".`;
    return [head, ...result.items.map((r) => `- [${r.item.kind} ${r.item.id}, ${r.item.createdAt.slice(0, 10)}] ${r.item.text}`)].join('\n');
  },
});

export const saveNoteTool = defineTool({
  name: 'save_note',
  description:
    'Remember something for later sessions in this workspace: kind "note" for facts about the project or your own working notes, kind "profile" for facts about the user (preferences, role). Keep items short; there is a character budget per kind. Pass replace_id to update an item instead of adding a near-duplicate.',
  schema: z.object({
    kind: z.enum(['note', 'profile']),
    text: z.string().min(1).max(2000).describe('The fact to remember, one or two sentences'),
    replace_id: z.string().optional().describe('Id of an existing item of the same kind that this text replaces'),
  }),
  danger: 'medium',
  readOnly: false,
  kind: 'other',
  summary: (args) => capSummary(oneLine(args.text)),
  async execute(args, ctx) {
    const result = await service(ctx).saveItem(args.kind, args.text, { ...(args.replace_id ? { replaceId: args.replace_id } : {}), source: ctx.sessionId });
    if (!result.ok) return { output: result.quarantined ? `Not saved, quarantined: ${result.reason}` : `Not saved: ${result.reason}`, isError: true };
    return `Saved ${result.item.kind} ${result.item.id}${result.replaced ? ` (replaces ${result.replaced})` : ''}.`;
  },
});

/** The memory tools for the registry: search_history and recall_memory (safe), save_note (medium). */
export const memoryTools: readonly AnyTool[] = [searchHistoryTool, recallMemoryTool, saveNoteTool] as unknown as readonly AnyTool[];
