import { describe, expect, it } from 'vitest';
import type { EngineEvent } from '../base/engine-event.js';
import { conversationFromEvents } from './conversation-builder.js';

describe('tool images replayed from the log', () => {
  it('a tool_result with images becomes a tool message with their type, size and ref (the bytes are not in the log)', () => {
    const events: EngineEvent[] = [
      { type: 'user_message', text: 'look', by: 'alice', mode: 'turn' },
      { type: 'turn_started', turnId: 't1', model: 'm' },
      { type: 'tool_call', turnId: 't1', iteration: 1, callId: 'c1', tool: 'mcp__a__shot', args: {}, danger: 'medium' },
      {
        type: 'tool_result',
        turnId: 't1',
        callId: 'c1',
        tool: 'mcp__a__shot',
        isError: false,
        output: 'screen',
        durationMs: 3,
        images: [{ mimeType: 'image/png', bytes: 70, ref: 'abc.png' }],
      },
      { type: 'tool_call', turnId: 't1', iteration: 1, callId: 'c2', tool: 'read_file', args: {}, danger: 'safe' },
      { type: 'tool_result', turnId: 't1', callId: 'c2', tool: 'read_file', isError: false, output: 'text', durationMs: 1 },
      { type: 'turn_done', turnId: 't1', iterations: 2 },
    ];
    const messages = conversationFromEvents(events);
    expect(messages[2]).toEqual({
      role: 'tool',
      callId: 'c1',
      name: 'mcp__a__shot',
      output: 'screen',
      isError: false,
      images: [{ mimeType: 'image/png', bytes: 70, ref: 'abc.png' }],
    });
    expect(messages[3]).not.toHaveProperty('images');
  });
});
