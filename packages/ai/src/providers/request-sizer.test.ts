import { describe, expect, it } from 'vitest';
import type { Message } from '../messages.js';
import { RequestSizer } from './request-budget.js';
import type { ModelRequest } from './types.js';

const user = (text: string): Message => ({ role: 'user', text }) as Message;
const request = (messages: Message[], system = 'system prompt'): ModelRequest => ({ model: 'm', system, tools: [], messages }) as unknown as ModelRequest;

describe('RequestSizer running total', () => {
  it('estimates only new messages, and agrees with a fresh count after appends, a compaction and a new system prompt', () => {
    const estimated: string[] = [];
    const sizer = new RequestSizer((text) => {
      estimated.push(text);
      return text.length;
    });
    const fresh = (r: ModelRequest) => new RequestSizer((text) => text.length).measure(r);
    const a = user('aaaa');
    const b = user('bbbbbbbb');
    const c = user('cc');
    expect(sizer.measure(request([a, b]))).toEqual(fresh(request([a, b])));
    estimated.length = 0;
    const history = [a, b, c];
    expect(sizer.measure(request(history))).toEqual(fresh(request(history)));
    expect(estimated).toEqual(['cc']); // a, b and the unchanged system prompt were not estimated again
    const summary = user('summary');
    const compacted = [summary, c];
    expect(sizer.measure(request(compacted))).toEqual(fresh(request(compacted)));
    expect(sizer.measure(request([a], 'another prompt'))).toEqual(fresh(request([a], 'another prompt')));
  });
});
