import type blessed from 'blessed';

/**
 * NO_COLOR (no-color.org): set and not empty, the TUI draws without colours. Attributes stay
 * (bold, underline, inverse: the cursor and the selected row are still visible).
 */
export function noColorWanted(env: NodeJS.ProcessEnv = process.env): boolean {
  return (env.NO_COLOR ?? '') !== '';
}

/** blessed's attribute word: flags << 18 | fg << 9 | bg; 0x1ff is the terminal's default colour. */
const DEFAULT_COLORS = (0x1ff << 9) | 0x1ff;
const FLAGS = ~0x3ffff;

/**
 * Makes `screen` draw every cell in the terminal's default colours, whatever the tags and
 * styles say: blessed turns each cell's attribute into an SGR sequence in one place
 * (`codeAttr`), so the colour bits are dropped there and nothing else changes.
 */
export function drawWithoutColour(screen: blessed.Widgets.Screen): void {
  const target = screen as unknown as { codeAttr(code: number): string };
  const original = target.codeAttr.bind(screen);
  target.codeAttr = (code: number) => original((code & FLAGS) | DEFAULT_COLORS);
}
