import { describe, expect, it } from 'vitest';
import type { Message } from '../messages.js';
import { toAnthropicMessages } from './anthropic-request.js';
import { toOpenAIMessages } from './openai-request.js';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const png = { mimeType: 'image/png', bytes: 12 * 1024, data: PNG, ref: 'a.png' };

/** Two calls in one reply, both with images, then a steering message. */
const conversation: Message[] = [
  { role: 'user', text: 'look' },
  {
    role: 'assistant',
    text: '',
    toolCalls: [
      { id: 'c1', name: 'mcp__a__shot', args: {}, rawArgs: '{}' },
      { id: 'c2', name: 'mcp__a__shot', args: {}, rawArgs: '{}' },
    ],
  },
  { role: 'tool', callId: 'c1', name: 'mcp__a__shot', output: 'screen one', isError: false, images: [png] },
  {
    role: 'tool',
    callId: 'c2',
    name: 'mcp__a__shot',
    output: '',
    isError: false,
    images: [
      { mimeType: 'image/bmp', bytes: 2048, data: 'Qk0=' },
      { mimeType: 'image/jpeg', bytes: 3000, ref: 'gone.jpg' },
      { ...png, data: 'R0lG' },
    ],
  },
  { role: 'user', text: 'and?' },
];

describe('tool images in the OpenAI Chat request', () => {
  it('tool messages stay text (naming each image); one user message of image_url parts follows the run of tool messages', () => {
    const out = toOpenAIMessages('sys', conversation);
    expect(out.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'tool', 'user', 'user']);
    expect(out[3]).toEqual({ role: 'tool', tool_call_id: 'c1', content: 'screen one\n[image image/png 12 KB]' });
    expect(out[4]).toEqual({
      role: 'tool',
      tool_call_id: 'c2',
      content: [
        '[image image/bmp 2 KB] (not shown to you: models take PNG, JPEG, GIF or WebP, not image/bmp)',
        '[image image/jpeg 3 KB] (not shown to you: its stored copy is no longer available)',
        '[image image/png 12 KB]',
      ].join('\n'),
    });
    expect(out[5]).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'Images returned by mcp__a__shot (call c1):' },
        { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
        { type: 'text', text: 'Images returned by mcp__a__shot (call c2):' },
        { type: 'image_url', image_url: { url: 'data:image/png;base64,R0lG' } },
      ],
    });
    expect(out[6]).toEqual({ role: 'user', content: 'and?' });
  });

  it('a model without vision gets notes and no image message', () => {
    const out = toOpenAIMessages('', conversation.slice(0, 3), { images: false });
    expect(out.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    expect(out[2]).toMatchObject({ content: 'screen one\n[image image/png 12 KB] (not shown to you: this model does not take images)' });
  });

  it('an error result with an image keeps its error mark', () => {
    const out = toOpenAIMessages('', [{ role: 'tool', callId: 'c', name: 't', output: 'boom', isError: true, images: [png] }]);
    expect(out[0]).toMatchObject({ role: 'tool', content: 'Error: boom\n[image image/png 12 KB]' });
    expect(out[1]).toMatchObject({ role: 'user' });
  });
});

describe('tool images in the Anthropic Messages request', () => {
  it('each tool_result holds a text block naming its images, then one base64 image block per image it can carry', () => {
    const out = toAnthropicMessages(conversation);
    expect(out.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(out[2]!.content).toEqual([
      {
        type: 'tool_result',
        tool_use_id: 'c1',
        content: [
          { type: 'text', text: 'screen one\n[image image/png 12 KB]' },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
        ],
      },
      {
        type: 'tool_result',
        tool_use_id: 'c2',
        content: [
          { type: 'text', text: expect.stringContaining('not image/bmp') },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'R0lG' } },
        ],
      },
      { type: 'text', text: 'and?' },
    ]);
  });

  it('without vision (or without images) the content stays one string', () => {
    const out = toAnthropicMessages(conversation.slice(2, 3), { images: false });
    expect(out[0]!.content).toEqual([
      { type: 'tool_result', tool_use_id: 'c1', content: 'screen one\n[image image/png 12 KB] (not shown to you: this model does not take images)' },
    ]);
  });
});
