import { describe, expect, it } from 'vitest';
import { describeChange } from './memory-edit.js';
import { renderExport } from './memory.js';

const items = [
  { id: 'n1', kind: 'note' as const, text: 'tests run with pnpm', createdAt: '2026-12-01T09:00:00.000Z' },
  { id: 'p1', kind: 'profile' as const, text: 'prefers short answers', createdAt: '2026-12-01T09:05:00.000Z' },
];
const memory = { sessionId: 's1', workspace: '/w', memory: '- fact\n', history: '[2026-12-01] did x\n', items };
const now = new Date('2026-12-02T10:00:00.000Z');

describe('memory export and edit wording', () => {
  it('markdown has both files and the recall items under headings; empty ones say so', () => {
    expect(renderExport(memory, 'markdown', now)).toBe(
      '# Tandem memory — /w\n\n_exported 2026-12-02T10:00:00.000Z from session s1_\n\n## MEMORY.md\n\n- fact\n\n' +
        '## User profile\n\n- prefers short answers _(p1, 2026-12-01)_\n\n## Agent notes\n\n- tests run with pnpm _(n1, 2026-12-01)_\n\n' +
        '## HISTORY.md\n\n[2026-12-01] did x\n',
    );
    const empty = renderExport({ ...memory, memory: ' \n', history: '', items: [] }, 'markdown', now);
    expect(empty).toContain('## MEMORY.md\n\n_empty_\n\n## User profile\n\n_none_\n\n## Agent notes\n\n_none_\n\n## HISTORY.md\n\n_empty_\n');
  });

  it('JSON keeps the texts exactly', () => {
    expect(JSON.parse(renderExport(memory, 'json', now))).toEqual({
      workspace: '/w',
      sessionId: 's1',
      exportedAt: '2026-12-02T10:00:00.000Z',
      memory: '- fact\n',
      history: '[2026-12-01] did x\n',
      items,
    });
  });

  it('says how MEMORY.md changed in size', () => {
    expect(describeChange(null, null)).toBe('MEMORY.md: not created (nothing saved)');
    expect(describeChange(null, 10)).toBe('MEMORY.md: created, 10 bytes');
    expect(describeChange(10, 10)).toBe('MEMORY.md: 10 bytes, size unchanged');
    expect(describeChange(10, 4)).toBe('MEMORY.md: 10 → 4 bytes (-6)');
    expect(describeChange(10, null)).toBe('MEMORY.md: removed');
  });
});
