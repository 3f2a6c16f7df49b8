import { dim } from './tags.js';

/** One part of a one-line bar (status, key hints) and how much it matters (higher stays longer). */
export interface LinePart {
  text: string;
  priority: number;
  /** A shorter form, used before the part is dropped altogether. */
  short?: string;
}

/** Columns a blessed-tagged string takes on screen (tags take none; `{open}` is one `{`). */
export function visibleWidth(tagged: string): number {
  return [...tagged.replace(/\{(open|close)\}/g, 'x').replace(/\{\/?[a-z-]*\}/g, '')].length;
}

/**
 * The parts joined by `separator`, dropping the least important ones (last first among equals)
 * until the line fits `width` columns: a narrow terminal shortens the line instead of cutting it.
 * Order on screen stays as given. `lead` is put before the line (e.g. a space).
 */
export function fitParts(parts: readonly LinePart[], width: number, separator = dim(' │ '), lead = ' '): string {
  const kept = parts.map((part, index) => ({ ...part, index }));
  const line = () => lead + kept.map((part) => part.text).join(separator);
  // blessed wraps a line that fills the last column: keep that column free.
  while (visibleWidth(line()) > width - 1) {
    let drop = -1;
    for (let i = 0; i < kept.length; i++) {
      const candidate = kept[i] as (typeof kept)[number];
      const current = drop < 0 ? undefined : kept[drop];
      if (!current || candidate.priority <= current.priority) drop = i;
    }
    const part = kept[drop];
    if (!part) break;
    if (part.short !== undefined && part.short !== part.text) part.text = part.short;
    else if (kept.length > 1) kept.splice(drop, 1);
    else break;
  }
  return line();
}
