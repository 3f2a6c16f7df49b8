import type { SessionEvent, SessionInfo } from '@tandem/shared';
import { describe, expect, it } from 'vitest';
import { formatItem } from '../views/format-transcript.js';
import { imageLine } from './image-line.js';
import { initialState, reduce, reduceAll } from './reducer.js';
import type { ToolItem } from './types.js';

const SESSION: SessionInfo = { id: 's1', title: 'demo', cwd: '/w', model: 'openai/m', createdAt: '2026-01-01T00:00:00.000Z', status: 'idle', lastSeq: 0 };
const at = { sessionId: 's1', ts: '2026-01-01T00:00:00.000Z' };

describe('tool images in the transcript', () => {
  it('names each image with its type and size, the text excerpt above it', () => {
    const events: SessionEvent[] = [
      { ...at, seq: 1, type: 'turn_started', turnId: 't', model: 'openai/m' },
      { ...at, seq: 2, type: 'tool_call', turnId: 't', iteration: 1, callId: 'c', tool: 'mcp__a__shot', args: {}, danger: 'medium' },
      {
        ...at,
        seq: 3,
        type: 'tool_result',
        turnId: 't',
        callId: 'c',
        tool: 'mcp__a__shot',
        isError: false,
        output: 'here is the screen',
        durationMs: 5,
        images: [
          { mimeType: 'image/png', bytes: 12 * 1024, ref: 'x.png' },
          { mimeType: 'image/jpeg', bytes: 3 * 1024 * 1024 + 1 },
        ],
      },
    ];
    const start = reduce(initialState({ url: 'http://x', me: 'ana', role: 'driver' }), { kind: 'attached', session: SESSION, role: 'driver' });
    const state = reduceAll(
      start,
      events.map((event) => ({ kind: 'event' as const, event })),
    );
    const item = state.items.find((i): i is ToolItem => i.kind === 'tool');
    expect(item?.result?.images).toEqual(['[image image/png 12 KB]', '[image image/jpeg 3.0 MB]']);
    const shown = formatItem(item!).map((l) => l.replace(/\{\/?[a-z-]+\}/g, ''));
    expect(shown.slice(-3)).toEqual(['  │ here is the screen', '  │ [image image/png 12 KB]', '  │ [image image/jpeg 3.0 MB]']);
  });

  it('sizes read as people read them', () => {
    expect(imageLine({ mimeType: 'image/gif', bytes: 70 })).toBe('[image image/gif 70 B]');
  });
});
