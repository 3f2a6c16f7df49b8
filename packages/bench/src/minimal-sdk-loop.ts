import OpenAI from 'openai';

export interface MinimalSdkLoopOptions {
  baseURL: string;
  apiKey: string;
  system: string;
  tools: OpenAI.Chat.ChatCompletionTool[];
  /** Model requests at most (the loop also ends on the first reply without tool calls). */
  maxRequests: number;
  /** Runs one tool call and returns its output. */
  runTool(call: { name: string; args: string }): Promise<string>;
}

/**
 * The baseline every Tandem bench is read against: the openai SDK in a minimal streaming loop —
 * request, collect the streamed text and tool calls, run the tools, append, again — with no
 * server, no persistence and no guards. Returns how many replies asked for tools (iterations).
 */
export async function minimalSdkLoop(options: MinimalSdkLoopOptions): Promise<number> {
  const client = new OpenAI({ baseURL: options.baseURL, apiKey: options.apiKey, maxRetries: 0 });
  const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [
    { role: 'system', content: options.system },
    { role: 'user', content: 'go' },
  ];
  let iterations = 0;
  for (let requests = 0; requests < options.maxRequests; requests++) {
    const stream = await client.chat.completions.create({ model: 'bench-model', messages, tools: options.tools, stream: true });
    let text = '';
    const calls = new Map<number, { id: string; name: string; args: string }>();
    for await (const chunk of stream) {
      const delta = chunk.choices[0]?.delta;
      if (delta?.content) text += delta.content;
      for (const tc of delta?.tool_calls ?? []) {
        const call = calls.get(tc.index) ?? { id: '', name: '', args: '' };
        call.id ||= tc.id ?? '';
        call.name ||= tc.function?.name ?? '';
        call.args += tc.function?.arguments ?? '';
        calls.set(tc.index, call);
      }
    }
    if (calls.size === 0) break;
    iterations++;
    const list = [...calls.values()];
    messages.push({
      role: 'assistant',
      content: text || null,
      tool_calls: list.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.args } })),
    });
    for (const call of list) messages.push({ role: 'tool', tool_call_id: call.id, content: await options.runTool(call) });
  }
  return iterations;
}
