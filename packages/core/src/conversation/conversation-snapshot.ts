import type { Message } from '@tandem/ai';

/**
 * A `ConversationBuilder`'s whole state as JSON-safe data, so a server can store it beside the
 * session's log and continue the fold from there instead of from the first event. `current` names
 * the assistant message still being filled by its index in `list`.
 */
export interface ConversationSnapshot {
  list: Message[];
  pendingTurnStart: number | null;
  turnStarts: Array<[string, number]>;
  current: { key: string; index: number } | null;
  openCalls: Array<{ callId: string; turnId: string; tool: string }>;
  /** Where each of the last finished turns began (for `undo`); absent from older snapshots. */
  doneTurns?: Array<[string, number]>;
}

/** Checks the shape of a stored snapshot; throws saying what is wrong (a damaged file is then ignored). */
export function checkConversationSnapshot(value: unknown): ConversationSnapshot {
  const fail = (what: string): never => {
    throw new Error(`conversation snapshot: ${what}`);
  };
  if (typeof value !== 'object' || value === null) fail('not an object');
  const s = value as Record<string, unknown>;
  if (!Array.isArray(s.list)) fail('list is not an array');
  const list = s.list as unknown[];
  for (const m of list) {
    const role = (m as { role?: unknown } | null)?.role;
    if (role !== 'user' && role !== 'assistant' && role !== 'tool') fail('a message has no known role');
    if (role === 'assistant' && !Array.isArray((m as { toolCalls?: unknown }).toolCalls)) fail('an assistant message has no toolCalls');
  }
  const isIndex = (n: unknown, max: number) => Number.isInteger(n) && (n as number) >= 0 && (n as number) <= max;
  if (s.pendingTurnStart !== null && !isIndex(s.pendingTurnStart, list.length)) fail('pendingTurnStart is out of range');
  if (!Array.isArray(s.turnStarts) || !s.turnStarts.every((e) => Array.isArray(e) && typeof e[0] === 'string' && isIndex(e[1], list.length))) {
    fail('turnStarts is malformed');
  }
  const current = s.current as { key?: unknown; index?: unknown } | null;
  if (current !== null) {
    if (typeof current !== 'object' || typeof current.key !== 'string' || !isIndex(current.index, list.length - 1)) fail('current is malformed');
    if ((list[current.index as number] as { role: string }).role !== 'assistant') fail('current is not an assistant message');
  }
  if (!Array.isArray(s.openCalls) || !s.openCalls.every((c) => typeof c?.callId === 'string' && typeof c.turnId === 'string' && typeof c.tool === 'string')) {
    fail('openCalls is malformed');
  }
  return value as ConversationSnapshot;
}
