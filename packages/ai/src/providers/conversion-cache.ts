import type { Message } from '../messages.js';

/**
 * A message's request form, converted once per message object and reused while the message is
 * unchanged, so a long conversation builds only its new messages per request (the entries go
 * with the messages). A message changed in place since (a reply still being filled: its text or
 * its tool calls; a tool result's output) is converted again. Used by each provider's request
 * builder for the messages whose form depends on nothing else.
 */
export class ConversionCache<T> {
  private readonly entries = new WeakMap<Message, { from: string; calls: number; value: T }>();

  get<M extends Message>(m: M, convert: (m: M) => T): T {
    const from = m.role === 'tool' ? m.output : m.text;
    const calls = m.role === 'assistant' ? m.toolCalls.length : 0;
    const known = this.entries.get(m);
    if (known && known.from === from && known.calls === calls) return known.value;
    const value = convert(m);
    this.entries.set(m, { from, calls, value });
    return value;
  }
}
