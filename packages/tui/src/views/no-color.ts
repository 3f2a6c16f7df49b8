import type blessed from 'blessed';

/**
 * NO_COLOR (no-color.org): set and not empty, the TUI draws without colours. Attributes stay
 * (bold, underline, inverse: the cursor and the selected row are still visible).
 */
export function noColorWanted(env: NodeJS.ProcessEnv = process.env): boolean {
  return (env.NO_COLOR ?? '') !== '';
}

/**
 * An SGR sequence without its colour parameters (30–39, 40–49, 90–97, 100–107, and the extended
 * 38;5;N / 38;2;R;G;B and their 48 forms); a sequence that only set colours is dropped whole.
 */
export function stripColourParams(text: string): string {
  return text.replace(/\x1b\[([0-9;]*)m/g, (whole, list: string) => {
    if (list === '') return whole;
    const params = list.split(';');
    const kept: string[] = [];
    for (let i = 0; i < params.length; i++) {
      const n = Number(params[i]);
      if (n === 38 || n === 48) {
        // 5;N takes two more parameters, 2;R;G;B four.
        i += params[i + 1] === '2' ? 4 : 2;
        continue;
      }
      if ((n >= 30 && n <= 49) || (n >= 90 && n <= 97) || (n >= 100 && n <= 107)) continue;
      kept.push(params[i] as string);
    }
    if (kept.length === 0) return params.includes('0') ? '\x1b[m' : '';
    return `\x1b[${kept.join(';')}m`;
  });
}

/**
 * Makes `screen` draw in the terminal's default colours, whatever the tags and styles say:
 * everything blessed draws goes out through `program._write`, where the colour parameters are
 * taken out of each SGR sequence and nothing else changes.
 */
export function drawWithoutColour(screen: blessed.Widgets.Screen): void {
  const program = screen.program as unknown as { _write(text: string): unknown };
  const write = program._write.bind(program);
  program._write = (text: string) => write(typeof text === 'string' ? stripColourParams(text) : text);
}
