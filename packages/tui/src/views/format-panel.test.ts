import { describe, expect, it } from 'vitest';
import { jobsContent } from '../panels/jobs-panel.js';
import { memoryContent } from '../panels/memory-panel.js';
import { emptyPanel } from '../panels/types.js';
import { formatPanel, windowTop } from './format-panel.js';

const jobs = Array.from({ length: 30 }, (_, i) => ({
  jobId: `job-${i}`,
  command: i === 3 ? 'echo {red-fg}x' : `cmd ${i}`,
  startedAt: `2026-01-01T10:00:${String(i).padStart(2, '0')}.000Z`,
  status: 'running' as const,
  logPath: `/l/${i}`,
}));

describe('formatPanel', () => {
  it('shows a window around the selection, the selected row inverse, its detail and the keys', () => {
    const content = jobsContent(jobs, 'driver');
    const panel = { ...emptyPanel('jobs'), selected: 20 };
    const lines = formatPanel(content, panel, 14, 100);
    expect(lines).toHaveLength(10 + 3);
    const selected = lines.filter((line) => line.startsWith('{inverse}'));
    expect(selected).toHaveLength(1);
    expect(selected[0]).toContain('job-9 ');
    expect(lines.join('\n')).toContain('log: /l/9');
    expect(lines.at(-1)).toContain('x stop job');
    expect(lines.at(-1)).toContain('Esc close');
  });

  it('escapes text from the server and says when the list is empty or loading', () => {
    const content = jobsContent(jobs.slice(0, 5), 'driver');
    const text = formatPanel(content, { ...emptyPanel('jobs'), selected: 1 }, 20, 100).join('\n');
    expect(text).toContain('echo {open}red-fg{close}x');
    expect(formatPanel(jobsContent([], 'driver'), emptyPanel('jobs'), 10, 80)[0]).toContain('no background jobs');
    expect(formatPanel(memoryContent(undefined), emptyPanel('memory'), 10, 80)[0]).toContain('loading');
  });

  it('scrolls text without selecting and says which lines are shown', () => {
    const memory = memoryContent({ memory: Array.from({ length: 50 }, (_, i) => `fact ${i}`).join('\n'), history: '' });
    const lines = formatPanel(memory, { ...emptyPanel('memory'), loading: false, selected: 10 }, 14, 80);
    expect(lines.some((line) => line.includes('{inverse}'))).toBe(false);
    expect(lines.join('\n')).toContain('lines 11–20 of');
  });

  it('a message replaces the note and errors are marked', () => {
    const lines = formatPanel(jobsContent(jobs.slice(0, 2), 'viewer'), { ...emptyPanel('jobs'), message: { level: 'error', text: 'nope' } }, 10, 80);
    expect(lines.join('\n')).toContain('✗ nope');
    expect(lines.join('\n')).not.toContain('read-only');
  });

  it('windowTop keeps the selection visible', () => {
    expect(windowTop(0, 100, 10)).toBe(0);
    expect(windowTop(50, 100, 10)).toBe(45);
    expect(windowTop(99, 100, 10)).toBe(90);
    expect(windowTop(3, 5, 10)).toBe(0);
  });
});
