import { expect } from 'vitest';
import { ProviderError } from '../provider-error.js';
import type { ModelRequest, ModelStreamEvent } from '../types.js';

/** A small request both adapter tests send: a brief system prompt, "hi", one read_file tool; `over` wins. */
export const sampleRequest = (over: Partial<ModelRequest> = {}): ModelRequest => ({
  system: 'be brief',
  messages: [{ role: 'user', text: 'hi' }],
  tools: [{ name: 'read_file', description: 'Reads a file.', parameters: { type: 'object', properties: { path: { type: 'string' } } } }],
  ...over,
});

/** Every event of a stream that must succeed. */
export async function collectStream(stream: AsyncIterable<ModelStreamEvent>): Promise<ModelStreamEvent[]> {
  const out: ModelStreamEvent[] = [];
  for await (const e of stream) out.push(e);
  return out;
}

/** The tool calls among a stream's events, in order. */
export function toolCallsOf(events: ModelStreamEvent[]): Extract<ModelStreamEvent, { type: 'tool_call' }>['call'][] {
  return events.flatMap((e) => (e.type === 'tool_call' ? [e.call] : []));
}

/** The ProviderError a stream must end with, and the events it yielded before. */
export async function streamFailure(stream: AsyncIterable<ModelStreamEvent>): Promise<{ error: ProviderError; events: ModelStreamEvent[] }> {
  const events: ModelStreamEvent[] = [];
  try {
    for await (const e of stream) events.push(e);
  } catch (error) {
    expect(error).toBeInstanceOf(ProviderError);
    return { error: error as ProviderError, events };
  }
  throw new Error('expected the stream to fail');
}
