import { describe, expect, it } from 'vitest';
import { visibleWidth } from './fit-line.js';
import { markdownLines } from './format-markdown.js';

/** What the screen shows: tags gone, `{open}`/`{close}` back to braces. */
const screen = (lines: string[]) => lines.map((l) => l.replace(/\{(\/?[a-z-]*)\}/g, (_, tag: string) => (tag === 'open' ? '{' : tag === 'close' ? '}' : '')));

describe('markdownLines', () => {
  it('keeps plain text as written, line by line', () => {
    expect(markdownLines('Done.\nTwo files changed.')).toEqual(['Done.', 'Two files changed.']);
    expect(markdownLines('')).toEqual(['']);
  });

  it('shows strong and headings in bold and code in cyan, without their markers', () => {
    const lines = markdownLines('# Plan\n\nRun **all** tests with `pnpm test` and *then* ship.');
    expect(lines).toEqual(['{bold}Plan{/bold}', '', 'Run {bold}all{/bold} tests with {cyan-fg}pnpm test{/cyan-fg} and then ship.']);
  });

  it('shows a code block without fences, indented, its braces and markdown left as text', () => {
    const lines = markdownLines('Try:\n\n```ts\nconst a = { b: **1** };\n```\nDone.');
    expect(screen(lines)).toEqual(['Try:', '', '  const a = { b: **1** };', 'Done.']);
    expect(lines[2]).toBe('{cyan-fg}  const a = {open} b: **1** {close};{/cyan-fg}');
  });

  it('reads an unfinished code block (still streaming) as code to the end', () => {
    expect(screen(markdownLines('```sh\nls -la\nrm -rf bu'))).toEqual(['  ls -la', '  rm -rf bu']);
  });

  it('draws lists with bullets, numbers from their start, task boxes and nesting', () => {
    const lines = screen(markdownLines('- one\n- two **x**\n  - nested\n\n3. third\n4. [x] done\n5. [ ] open'));
    expect(lines).toEqual(['• one', '• two x', '  • nested', '', '3. third', '4. [x] done', '5. [ ] open']);
  });

  it('puts quotes behind a bar and aligns table columns', () => {
    expect(screen(markdownLines('> careful\n> here'))).toEqual(['│ careful', '│ here']);
    const table = markdownLines('| file | lines |\n|---|---|\n| `a.ts` | 12 |\n| b.ts | 1200 |');
    expect(screen(table)).toEqual(['file │ lines', '─────┼──────', 'a.ts │ 12   ', 'b.ts │ 1200 ']);
    expect(new Set(table.map(visibleWidth)).size).toBe(1);
  });

  it('gives a link its address unless it is the address, and escapes what the model wrote', () => {
    expect(screen(markdownLines('See [the docs](https://x.dev/a) or https://x.dev/b.'))).toEqual(['See the docs (https://x.dev/a) or https://x.dev/b.']);
    expect(markdownLines('a {red-fg} b')).toEqual(['a {open}red-fg{close} b']);
    expect(screen(markdownLines('<div>{x}</div>'))).toEqual(['<div>{x}</div>']);
  });
});
