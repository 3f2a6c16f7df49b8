import type Anthropic from '@anthropic-ai/sdk';

type MessageParam = Anthropic.Messages.MessageParam;
type Tool = Anthropic.Messages.Tool;
type TextBlock = Anthropic.Messages.TextBlockParam;

/** The one kind of breakpoint: the default five-minute cache. */
export const EPHEMERAL: Readonly<Anthropic.Messages.CacheControlEphemeral> = Object.freeze({ type: 'ephemeral' });

/** What a request carries once its breakpoints are placed. */
export interface CachedRequestParts {
  system: TextBlock[] | undefined;
  tools: Tool[];
  messages: MessageParam[];
}

/**
 * Places the prompt-cache breakpoints of one Messages request (at most four, the API's limit).
 * The API reads a request as tools, then system, then messages; a breakpoint caches everything
 * up to it, and a later request reads the longest cached prefix it shares.
 *
 * 1. the last tool definition: the tools stay cached when only the system prompt changes;
 * 2. the system prompt: tools and system together, the part every request of a session shares;
 * 3. the newest message (the request's last turn): this request writes its whole prefix, so the
 *    next request, which extends it, reads it;
 * 4. the user turn before the newest one: where the previous request ended. The request reads
 *    exactly what the previous one wrote, whatever was added since (many parallel tool results,
 *    a steering message folded in after them), without relying on the API's lookback of a few
 *    blocks from a breakpoint.
 *
 * Compaction rewrites the messages, so breakpoints 3 and 4 find nothing and write anew; 1 and 2
 * still read the tools and the system prompt. Tools added mid-session (an MCP server) move
 * breakpoint 1 to the new last tool and the whole prefix is written once more.
 *
 * Turns and tools are never changed: the marked ones are copies, made once per turn or tool, so
 * the same turn marked again is the same object and the request body reuses its bytes
 * (request-bytes.ts).
 */
export function placeBreakpoints(system: string, tools: readonly Tool[], messages: readonly MessageParam[]): CachedRequestParts {
  const out = [...messages];
  const newest = out.length - 1;
  if (newest >= 0) {
    out[newest] = markedTurn(out[newest]!);
    for (let i = newest - 1; i >= 0; i--) {
      if (out[i]!.role !== 'user') continue;
      out[i] = markedTurn(out[i]!);
      break;
    }
  }
  const markedTools = tools.length > 0 ? [...tools.slice(0, -1), markedTool(tools[tools.length - 1]!)] : [...tools];
  return {
    system: system.trim() !== '' ? systemBlocks(system) : undefined,
    tools: markedTools,
    messages: out,
  };
}

const turnMarks = new WeakMap<MessageParam, MessageParam>();

/** The turn with a breakpoint on its last block (the API takes `cache_control` on any content block). */
function markedTurn(turn: MessageParam): MessageParam {
  let marked = turnMarks.get(turn);
  if (!marked) {
    const content: Anthropic.Messages.ContentBlockParam[] = typeof turn.content === 'string' ? [{ type: 'text', text: turn.content }] : [...turn.content];
    const last = content[content.length - 1];
    if (last) content[content.length - 1] = { ...last, cache_control: EPHEMERAL } as Anthropic.Messages.ContentBlockParam;
    marked = { ...turn, content } as MessageParam;
    turnMarks.set(turn, marked);
  }
  return marked;
}

const toolMarks = new WeakMap<Tool, Tool>();

function markedTool(tool: Tool): Tool {
  let marked = toolMarks.get(tool);
  if (!marked) {
    marked = { ...tool, cache_control: EPHEMERAL };
    toolMarks.set(tool, marked);
  }
  return marked;
}

/** The system prompt as one text block with a breakpoint: one per prompt, reused while the prompt stays the same. */
let lastSystem: { text: string; blocks: TextBlock[] } | undefined;

function systemBlocks(system: string): TextBlock[] {
  if (lastSystem?.text !== system) lastSystem = { text: system, blocks: [{ type: 'text', text: system, cache_control: EPHEMERAL }] };
  return lastSystem.blocks;
}

/** How many breakpoints a request body carries (tests and checks: the API refuses more than four). */
export function countBreakpoints(body: { system?: unknown; tools?: unknown; messages?: unknown }): number {
  let n = 0;
  const count = (block: unknown) => {
    if (block && typeof block === 'object' && (block as { cache_control?: unknown }).cache_control) n++;
  };
  if (Array.isArray(body.system)) body.system.forEach(count);
  if (Array.isArray(body.tools)) body.tools.forEach(count);
  if (Array.isArray(body.messages)) {
    for (const m of body.messages as Array<{ content?: unknown }>) if (Array.isArray(m.content)) m.content.forEach(count);
  }
  return n;
}
