export interface HistoryMatch {
  /** 1-based line where the entry starts in HISTORY.md. */
  line: number;
  /** The entry's text, clipped to `maxEntryChars`. */
  entry: string;
}

export interface HistorySearchResult {
  matches: HistoryMatch[];
  /** Entries that matched in total (may exceed `matches.length`). */
  total: number;
}

export interface HistorySearchOptions {
  /** Treat the pattern as a regular expression (case-insensitive); default plain text. */
  regex?: boolean;
  /** At most this many entries, newest first (default 20, at most 200). */
  limit?: number;
  maxEntryChars?: number;
}

/** A bad search pattern, worded for the model or the user. */
export class HistoryPatternError extends Error {
  override readonly name = 'HistoryPatternError';
}

const ENTRY_START = /^\[\d{4}-\d{2}-\d{2}/;

/** Splits HISTORY.md into dated entries (each starts with "[YYYY-MM-DD"). */
export function historyEntries(text: string): Array<{ line: number; text: string }> {
  const entries: Array<{ line: number; text: string }> = [];
  const lines = text.split(/\r?\n/);
  let current: { line: number; lines: string[] } | undefined;
  lines.forEach((l, i) => {
    if (ENTRY_START.test(l) || !current) {
      if (current) entries.push({ line: current.line, text: current.lines.join('\n').trim() });
      current = { line: i + 1, lines: [] };
    }
    current.lines.push(l);
  });
  if (current) entries.push({ line: current.line, text: current.lines.join('\n').trim() });
  return entries.filter((e) => e.text.length > 0);
}

/** Greps HISTORY.md text entry by entry: plain (case-insensitive) or regex, newest first, capped. */
export function searchHistoryText(text: string, pattern: string, options: HistorySearchOptions = {}): HistorySearchResult {
  if (!pattern.trim()) throw new HistoryPatternError('the search pattern is empty; give a word or a regular expression');
  if (pattern.length > 500) throw new HistoryPatternError('the search pattern is longer than 500 characters; shorten it');
  let test: (s: string) => boolean;
  if (options.regex) {
    let re: RegExp;
    try {
      re = new RegExp(pattern, 'i');
    } catch (err) {
      throw new HistoryPatternError(`"${pattern}" is not a valid regular expression (${(err as Error).message}); fix it or search as plain text`);
    }
    test = (s) => re.test(s);
  } else {
    const needle = pattern.toLowerCase();
    test = (s) => s.toLowerCase().includes(needle);
  }
  const limit = Math.min(200, Math.max(1, Math.floor(options.limit ?? 20)));
  const maxChars = options.maxEntryChars ?? 1_000;
  const hits = historyEntries(text).filter((e) => test(e.text.slice(0, 20_000)));
  const matches = hits
    .reverse()
    .slice(0, limit)
    .map((e) => ({ line: e.line, entry: e.text.length > maxChars ? `${e.text.slice(0, maxChars)}…` : e.text }));
  return { matches, total: hits.length };
}
