import { rawArgs, replyDeltas, replyText, splitArgs, wireUsage, type FakeReply, type FakeRequest, type WireUsage } from './fake-reply.js';

/** One SSE event of the Anthropic Messages stream: its `event:` name and JSON data. */
export interface NamedEvent {
  event: string;
  data: string;
}

/**
 * The usage object of the Messages API: `input_tokens` is only the part neither read from nor
 * written to the cache; the cache's parts are counted apart.
 */
function anthropicUsage(usage: WireUsage, output: number): object {
  return {
    input_tokens: Math.max(0, usage.input - usage.cacheRead - usage.cacheWrite),
    cache_creation_input_tokens: usage.cacheWrite,
    cache_read_input_tokens: usage.cacheRead,
    output_tokens: output,
  };
}

/** Renders a reply in the Anthropic Messages streaming format (`usage`: default, the estimate with no cache). */
export function anthropicStreamEvents(request: FakeRequest, reply: FakeReply, seq: number, usage: WireUsage = wireUsage(request, reply)): NamedEvent[] {
  const ev = (event: string, data: object): NamedEvent => ({ event, data: JSON.stringify({ type: event, ...data }) });
  const events: NamedEvent[] = [
    ev('message_start', {
      message: {
        id: `msg_fake_${seq}`,
        type: 'message',
        role: 'assistant',
        content: [],
        model: request.model ?? 'fake',
        stop_reason: null,
        stop_sequence: null,
        usage: anthropicUsage(usage, 1),
      },
    }),
  ];
  let index = 0;
  const deltas = replyDeltas(reply);
  if (deltas.length > 0) {
    events.push(ev('content_block_start', { index, content_block: { type: 'text', text: '' } }));
    for (const text of deltas) events.push(ev('content_block_delta', { index, delta: { type: 'text_delta', text } }));
    events.push(ev('content_block_stop', { index }));
    index += 1;
  }
  (reply.toolCalls ?? []).forEach((call, n) => {
    const id = call.id ?? `toolu_${seq}_${n}`;
    events.push(ev('content_block_start', { index, content_block: { type: 'tool_use', id, name: call.name, input: {} } }));
    for (const partial_json of splitArgs(rawArgs(call))) {
      events.push(ev('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json } }));
    }
    events.push(ev('content_block_stop', { index }));
    index += 1;
  });
  const stop_reason = reply.toolCalls?.length ? 'tool_use' : 'end_turn';
  events.push(ev('message_delta', { delta: { stop_reason, stop_sequence: null }, usage: { output_tokens: usage.output } }));
  events.push(ev('message_stop', {}));
  return events;
}

export function anthropicJson(request: FakeRequest, reply: FakeReply, seq: number, usage: WireUsage = wireUsage(request, reply)): object {
  const text = replyText(reply);
  const content: object[] = text ? [{ type: 'text', text }] : [];
  (reply.toolCalls ?? []).forEach((call, n) => {
    let input: unknown = {};
    try {
      input = JSON.parse(rawArgs(call) || '{}');
    } catch {
      input = {};
    }
    content.push({ type: 'tool_use', id: call.id ?? `toolu_${seq}_${n}`, name: call.name, input });
  });
  return {
    id: `msg_fake_${seq}`,
    type: 'message',
    role: 'assistant',
    model: request.model ?? 'fake',
    content,
    stop_reason: reply.toolCalls?.length ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage: anthropicUsage(usage, usage.output),
  };
}

export function anthropicErrorBody(status: number, message: string): object {
  const type =
    status === 429
      ? 'rate_limit_error'
      : status === 401
        ? 'authentication_error'
        : status === 403
          ? 'permission_error'
          : status === 529
            ? 'overloaded_error'
            : status >= 500
              ? 'api_error'
              : 'invalid_request_error';
  return { type: 'error', error: { type, message } };
}
