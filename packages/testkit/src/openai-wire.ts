import { rawArgs, replyDeltas, replyText, splitArgs, wireUsage, type FakeReply, type FakeRequest, type WireUsage } from './fake-reply.js';

/** The usage object of Chat Completions: `prompt_tokens` counts every prompt token; the cached part is in its details. */
function openaiUsage(usage: WireUsage): object {
  return {
    prompt_tokens: usage.input,
    completion_tokens: usage.output,
    total_tokens: usage.input + usage.output,
    prompt_tokens_details: { cached_tokens: usage.cacheRead },
  };
}

/** Renders a reply in the OpenAI Chat Completions format (streamed chunks or one JSON body; `usage`: default, the estimate with no cache). */
export function openaiStreamEvents(request: FakeRequest, reply: FakeReply, seq: number, usage: WireUsage = wireUsage(request, reply)): string[] {
  const id = `chatcmpl-fake-${seq}`;
  const model = request.model ?? 'fake';
  const created = Math.floor(Date.now() / 1000);
  const chunk = (choices: unknown[], extra: object = {}) => JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices, ...extra });
  const delta = (d: object, finish: string | null = null) => chunk([{ index: 0, delta: d, finish_reason: finish }]);

  const events: string[] = [delta({ role: 'assistant', content: '' })];
  for (const piece of replyDeltas(reply)) events.push(delta({ content: piece }));
  (reply.toolCalls ?? []).forEach((call, index) => {
    const callId = call.id ?? `call_${seq}_${index}`;
    events.push(delta({ tool_calls: [{ index, id: callId, type: 'function', function: { name: call.name, arguments: '' } }] }));
    for (const part of splitArgs(rawArgs(call))) events.push(delta({ tool_calls: [{ index, function: { arguments: part } }] }));
  });
  const finish = reply.toolCalls?.length ? 'tool_calls' : 'stop';
  events.push(delta({}, finish));
  if (request.body?.stream_options?.include_usage) events.push(chunk([], { usage: openaiUsage(usage) }));
  events.push('[DONE]');
  return events;
}

export function openaiJson(request: FakeRequest, reply: FakeReply, seq: number, usage: WireUsage = wireUsage(request, reply)): object {
  const toolCalls = (reply.toolCalls ?? []).map((call, index) => ({
    id: call.id ?? `call_${seq}_${index}`,
    type: 'function',
    function: { name: call.name, arguments: rawArgs(call) },
  }));
  return {
    id: `chatcmpl-fake-${seq}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: request.model ?? 'fake',
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: replyText(reply) || null,
          refusal: null,
          ...(toolCalls.length ? { tool_calls: toolCalls } : {}),
        },
        finish_reason: toolCalls.length ? 'tool_calls' : 'stop',
        logprobs: null,
      },
    ],
    usage: openaiUsage(usage),
  };
}

export function openaiErrorBody(status: number, message: string): object {
  const type = status === 429 ? 'rate_limit_error' : status === 401 ? 'invalid_request_error' : status >= 500 ? 'server_error' : 'invalid_request_error';
  return { error: { message, type, param: null, code: null } };
}
