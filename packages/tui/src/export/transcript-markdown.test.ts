import type { SessionEvent } from '@tandem/shared';
import { describe, expect, it } from 'vitest';
import { fence, transcriptMarkdown } from './transcript-markdown.js';

const SESSION = { id: 's1', title: 'fix the tests', cwd: '/w/app', model: 'openai/gpt-4.1-mini', createdAt: '2026-01-01T00:00:00.000Z' };

function events(bodies: Array<Record<string, unknown>>): SessionEvent[] {
  return bodies.map((body, i) => ({ sessionId: 's1', seq: i + 1, ts: '2026-01-01T00:00:00.000Z', ...body }) as SessionEvent);
}

describe('markdown transcript', () => {
  const log = events([
    { type: 'user_message', text: 'run the tests', by: 'ana', mode: 'turn' },
    { type: 'tool_call', turnId: 't1', iteration: 1, callId: 'c1', tool: 'run_command', args: { command: 'npm test' }, danger: 'dangerous' },
    { type: 'permission_request', requestId: 'r1', callId: 'c1', tool: 'run_command', args: {}, danger: 'dangerous', expiresAt: '' },
    { type: 'permission_resolved', requestId: 'r1', decision: 'allow_once', by: 'bo' },
    { type: 'user_message', text: 'only the unit ones', by: 'bo', mode: 'steer' },
    { type: 'tool_result', turnId: 't1', callId: 'c1', tool: 'run_command', isError: true, output: 'FAIL a.test.ts\n```x```', durationMs: 1200 },
    { type: 'assistant_text', turnId: 't1', iteration: 2, text: 'One test fails.' },
  ]);

  it('says who said what, each tool call with arguments, who allowed it, and its result', () => {
    const md = transcriptMarkdown(SESSION, log, new Date('2026-01-02T00:00:00.000Z'));
    expect(md).toContain('# fix the tests');
    expect(md).toContain('- Folder: `/w/app`');
    expect(md).toContain('## ana\n\nrun the tests');
    expect(md).toContain('## bo (while the agent worked)\n\nonly the unit ones');
    expect(md).toContain('### Tool: run_command');
    expect(md).toContain('```json\n{\n  "command": "npm test"\n}\n```');
    expect(md).toContain('Permission: allow once by bo');
    expect(md).toContain('Result (error, 1200 ms):\n\n````\nFAIL a.test.ts\n```x```\n````');
    expect(md).toContain('## Tandem\n\nOne test fails.');
    // The tool block stays where the call was, before the steer that came while it ran.
    expect(md.indexOf('### Tool: run_command')).toBeLessThan(md.indexOf('## bo'));
  });

  it('a fence is longer than any backtick run inside', () => {
    expect(fence('a ``` b')).toBe('````\na ``` b\n````');
    expect(fence('plain', 'json')).toBe('```json\nplain\n```');
  });
});
