import { describe, expect, it } from 'vitest';
import type { Message } from '../messages.js';
import { toOpenAIMessages, toOpenAITools } from './openai-request.js';
import { leaseOf } from './body-lease.js';
import { BODY_SIZE_STEP, RequestBytes } from './request-bytes.js';

const call = (id: string) => ({ id, name: 'read_file', args: { path: `${id}.txt` }, rawArgs: `{"path":"${id}.txt"}` });
const tools = [{ name: 'read_file', description: 'Reads a file — “quoted”, ü', parameters: { type: 'object', properties: { path: { type: 'string' } } } }];
const text = (bytes: Uint8Array) => Buffer.from(bytes).toString('utf8');

describe('RequestBytes.body', () => {
  it('writes the JSON of the whole body as UTF-8, leaving out an empty list', () => {
    const bodies = new RequestBytes();
    const fields = { model: 'm', stream: true, stream_options: { include_usage: true }, temperature: 0.2 };
    const messages = [{ role: 'user', content: 'héllo "there"\n' }];
    const key = {};
    const both = [
      { name: 'messages', key, items: messages },
      { name: 'tools', key: {}, items: [] },
    ];
    expect(JSON.parse(text(bodies.body(fields, both)))).toEqual({ ...fields, messages });
    expect(JSON.parse(text(bodies.body({}, [{ name: 'messages', key, items: messages }])))).toEqual({ messages });
    expect(text(bodies.body({ a: 1 }, []))).toBe('{"a":1}');
  });

  it('gives what stringifying the whole request would, as the conversation grows, changes in place and shrinks', () => {
    const bodies = new RequestBytes();
    const toolsKey = {};
    const conversation: Message[] = [
      { role: 'user', text: 'go' },
      { role: 'assistant', text: '', toolCalls: [call('a')] },
      { role: 'tool', callId: 'a', name: 'read_file', output: 'partial', isError: false },
    ];
    // The model name changes length each time, so the lists move within the body.
    let model = 'm';
    const request = () => {
      model += 'm';
      const messages = toOpenAIMessages('system — ü', conversation);
      const specs = toOpenAITools(tools);
      const body = text(
        bodies.body({ model }, [
          { name: 'messages', key: conversation, items: messages },
          { name: 'tools', key: toolsKey, items: specs },
        ]),
      );
      expect(body).toBe(JSON.stringify({ model, messages, tools: specs }));
      return JSON.parse(body) as { messages: Array<{ content: unknown }> };
    };
    request();
    conversation.push(
      { role: 'assistant', text: '', toolCalls: [call('b')] },
      { role: 'tool', callId: 'b', name: 'read_file', output: 'b text', isError: false },
    );
    expect(request().messages.map((m) => m.content)).toEqual(['system — ü', 'go', null, 'partial', null, 'b text']);
    request();
    (conversation[1] as Extract<Message, { role: 'assistant' }>).text = 'Reading.';
    (conversation[2] as Extract<Message, { role: 'tool' }>).output = 'whole output';
    expect(request().messages.map((m) => m.content)).toEqual(['system — ü', 'go', 'Reading.', 'whole output', null, 'b text']);
    conversation.splice(3, 2);
    expect(request().messages.map((m) => m.content)).toEqual(['system — ü', 'go', 'Reading.', 'whole output']);
    conversation.push({ role: 'user', text: 'again' });
    expect(request().messages.map((m) => m.content)).toEqual(['system — ü', 'go', 'Reading.', 'whole output', 'again']);
  });

  it('copies the bytes of the items that did not change from the last body and adds only the new ones', () => {
    const bodies = new RequestBytes();
    const key = {};
    const a = { n: 1 };
    const b = { n: 2 };
    expect(text(bodies.body({}, [{ name: 'l', key, items: [a, b] }]))).toBe('{"l":[{"n":1},{"n":2}]}');
    expect(text(bodies.body({ x: 'longer' }, [{ name: 'l', key, items: [a, b, { n: 3 }] }]))).toBe('{"x":"longer","l":[{"n":1},{"n":2},{"n":3}]}');
    expect(text(bodies.body({}, [{ name: 'l', key, items: [b] }]))).toBe('{"l":[{"n":2}]}');
    expect(text(bodies.body({}, [{ name: 'l', key, items: [b, a] }]))).toBe('{"l":[{"n":2},{"n":1}]}');
  });

  it("gives a growing conversation's large bodies memory in whole size steps, so they reuse each other's", () => {
    const bodies = new RequestBytes();
    const key = {};
    const items: object[] = [];
    const capacities = new Set<number>();
    for (let i = 0; i < 120; i++) {
      items.push({ step: i, output: 'x'.repeat(300) });
      const body = bodies.body({ model: 'm' }, [{ name: 'messages', key, items: [...items] }]);
      expect(JSON.parse(text(body))).toEqual({ model: 'm', messages: items });
      if (body.byteLength > BODY_SIZE_STEP) {
        expect(body.buffer.byteLength % BODY_SIZE_STEP).toBe(0);
        expect(body.buffer.byteLength - body.byteLength).toBeLessThan(BODY_SIZE_STEP);
        capacities.add(body.buffer.byteLength);
      }
    }
    // ~38 KB of growth over the run: a handful of sizes, not one per body.
    expect(capacities.size).toBeLessThanOrEqual(3);
  });

  it('writes a conversation right again after many others were built since (its last body no longer kept)', () => {
    const bodies = new RequestBytes();
    const first = [{ n: 1 }, { n: 2 }];
    expect(text(bodies.body({}, [{ name: 'l', key: first, items: first }]))).toBe('{"l":[{"n":1},{"n":2}]}');
    for (let i = 0; i < 40; i++) {
      const other = [{ other: i }];
      expect(text(bodies.body({}, [{ name: 'l', key: other, items: other }]))).toBe(`{"l":[{"other":${i}}]}`);
    }
    first.push({ n: 3 });
    expect(text(bodies.body({ again: true }, [{ name: 'l', key: first, items: first }]))).toBe('{"again":true,"l":[{"n":1},{"n":2},{"n":3}]}');
  });
});

describe('RequestBytes memory', () => {
  const big = (step: number) => ({ step, output: 'x'.repeat(BODY_SIZE_STEP) });

  it('builds a body in the memory of one whose request is over, and the bytes are right', () => {
    const bodies = new RequestBytes();
    const key = {};
    const items: object[] = [big(0)];
    const first = bodies.body({ model: 'm' }, [{ name: 'messages', key, items: [...items] }]);
    bodies.done(first);
    items.push({ step: 1 });
    // The next body is built from the first (its last body), so not in its memory.
    const second = bodies.body({ model: 'm' }, [{ name: 'messages', key, items: [...items] }]);
    expect(second.buffer).not.toBe(first.buffer);
    bodies.done(second);
    items.push({ step: 2 });
    const third = bodies.body({ model: 'm' }, [{ name: 'messages', key, items: [...items] }]);
    expect(third.buffer).toBe(first.buffer);
    expect(JSON.parse(text(third))).toEqual({ model: 'm', messages: items });
  });

  it('never writes memory someone still holds: the asker, a transport, or one that pinned it', () => {
    const bodies = new RequestBytes();
    const key = {};
    const items: object[] = [big(0)];
    const next = () => {
      items.push({ step: items.length });
      return bodies.body({}, [{ name: 'l', key, items: [...items] }]);
    };
    const asked = next();
    const sending = next();
    const releaseSent = leaseOf(sending)!.hold();
    bodies.done(sending);
    const pinned = next();
    leaseOf(pinned)!.pin();
    bodies.done(pinned);
    const seen = new Set<ArrayBufferLike>();
    for (let i = 0; i < 6; i++) {
      const body = next();
      expect(JSON.parse(text(body))).toEqual({ l: items });
      seen.add(body.buffer);
      bodies.done(body);
    }
    // Two memories take turns for the six; none of them is one still held or pinned.
    expect(seen.size).toBe(2);
    for (const held of [asked, sending, pinned]) expect(seen.has(held.buffer)).toBe(false);
    // The transport lets go: that memory is used again.
    releaseSent();
    const after = [next(), next(), next()].map((body) => {
      bodies.done(body);
      return body.buffer;
    });
    expect(after).toContain(sending.buffer);
    expect(after).not.toContain(asked.buffer);
  });

  it('stays exact over a long conversation that reuses two memories', () => {
    const bodies = new RequestBytes();
    const key = {};
    const toolsKey = {};
    const tools = [{ type: 'function', function: { name: 'read_file', description: 'Reads — ü' } }];
    const items: object[] = [];
    const memories = new Set<ArrayBufferLike>();
    for (let i = 0; i < 150; i++) {
      items.push({ role: i % 2 ? 'tool' : 'assistant', content: `step ${i} ${'y'.repeat(200)} “${i}”` });
      const body = bodies.body({ model: 'm' }, [
        { name: 'messages', key, items: [...items] },
        { name: 'tools', key: toolsKey, items: tools },
      ]);
      expect(JSON.parse(text(body))).toEqual({ model: 'm', messages: items, tools });
      if (body.byteLength > BODY_SIZE_STEP) memories.add(body.buffer);
      bodies.done(body);
    }
    // ~40 KB of growth: each size step needs two memories at most, not one per body.
    expect(memories.size).toBeLessThanOrEqual(6);
  });

  it('lends only bodies above the size step (small ones share Node’s buffer pool)', () => {
    const bodies = new RequestBytes();
    const small = bodies.body({ a: 1 }, []);
    expect(leaseOf(small)).toBeUndefined();
    const large = bodies.body({}, [{ name: 'l', key: {}, items: [big(0)] }]);
    expect(leaseOf(large)?.free).toBe(false);
    bodies.done(large);
    expect(leaseOf(large)?.free).toBe(true);
  });
});
