import { describe, expect, it } from 'vitest';
import type { RunSummaryItem } from '../state/types.js';
import { formatRunSummary, SUMMARY_MAX_WIDTH } from './format-run-summary.js';

/** What the terminal shows: tags gone, {open}/{close} back to braces. */
const plain = (line: string) =>
  line
    .replace(/\{(?!open\}|close\})\/?[a-z-]+\}/g, '')
    .replace(/\{open\}/g, '{')
    .replace(/\{close\}/g, '}');

const ITEM: RunSummaryItem = {
  kind: 'run_summary',
  turnId: 't1',
  model: 'anthropic/claude-sonnet-4-5',
  iterations: 3,
  outcome: 'answered',
  calls: [
    { callId: 'a', tool: 'read_file', summary: 'internal/memory/store.go', status: 'ok', durationMs: 20 },
    { callId: 'b', tool: 'run_command', summary: 'go test ./internal/memory/...', status: 'error', durationMs: 2100 },
  ],
  usage: { inputTokens: 1200, outputTokens: 80 },
};

describe('the run summary box', () => {
  it('is a closed box: model, iterations, each call with outcome and time, the final line', () => {
    const lines = formatRunSummary(ITEM).map(plain);
    expect(lines[0]).toMatch(/^┌─ Agent run ─+┐$/);
    expect(lines.at(-1)).toMatch(/^└─+┘$/);
    const body = lines.slice(1, -1).map((line) => line.slice(2, -2).trimEnd());
    expect(body).toEqual([
      'Model: anthropic/claude-sonnet-4-5',
      'Iterations: 3',
      '',
      '[1] read_file("internal/memory/store.go") → OK (20ms)',
      '[2] run_command("go test ./internal/memory/...") → ERROR (2.1s)',
      '',
      'Final answer produced · 1,200 in / 80 out tokens',
    ]);
    const widths = new Set(lines.map((line) => [...line].length));
    expect(widths.size).toBe(1);
    expect(formatRunSummary(ITEM)[5]).toContain('{red-fg}');
  });

  it('never gets wider than SUMMARY_MAX_WIDTH, cutting long calls, and escapes tags', () => {
    const lines = formatRunSummary({
      ...ITEM,
      calls: [{ callId: 'x', tool: 'run_command', summary: `echo {bold}${'y'.repeat(300)}`, status: 'ok', durationMs: 5 }],
    });
    for (const line of lines) expect([...plain(line)].length).toBe(SUMMARY_MAX_WIDTH);
    expect(lines.join('\n')).toContain('echo {open}bold{close}');
    expect(lines.map(plain).some((line) => line.includes('…'))).toBe(true);
  });

  it('says why a turn stopped early, and turns without tools still get the box', () => {
    const cancelled = formatRunSummary({ ...ITEM, outcome: 'cancelled', iterations: 0, usage: undefined }).map(plain);
    expect(cancelled.some((line) => line.includes('Stopped: cancelled'))).toBe(true);
    expect(cancelled.some((line) => line.includes('Iterations'))).toBe(false);
    const chat = formatRunSummary({ ...ITEM, calls: [], iterations: 1 }).map(plain);
    expect(chat).toHaveLength(6);
  });
});
