import type { Message } from '@tandem/ai';
import type { ToolSpec } from '@tandem/ai';

/**
 * Token estimates by character class (requirements C2), in one pass over the text with no allocation
 * per character. A plain chars/4 estimate undercounts Chinese two to three times, because BPE
 * vocabularies hold few multi-character CJK tokens: a Han character is about one token.
 *
 * The constants were tuned against cl100k_base counts of fixed samples (see
 * estimate-tokens.test.ts). Newer vocabularies (o200k, Claude's) need fewer tokens for CJK;
 * that difference is what per-model calibration (calibration.ts) absorbs once a provider
 * reports real usage. Erring high before calibration is the safe side for a context budget.
 */

/** Tokens per Han ideograph (cl100k: ~1.0; o200k: ~0.7). */
const HAN = 1.0;
/** Tokens per Hiragana/Katakana character. */
const KANA = 1.0;
/** Tokens per Hangul syllable. */
const HANGUL = 1.1;
/** Tokens per CJK or full-width punctuation mark. */
const CJK_PUNCT = 1.0;
/** Letters of other scripts (Cyrillic, Greek, Arabic, ...): tokens per letter. */
const OTHER_LETTER = 0.45;
/** Emoji and other symbols outside the BMP's common blocks: tokens per code point. */
const SYMBOL = 1.5;
/** Latin sub-words: a short word is one token, a long one about one per this many letters. */
const LATIN_CHARS_PER_TOKEN = 5;
const LATIN_ONE_TOKEN_MAX = 8;
/** Digits are grouped by up to three in cl100k/o200k. */
const DIGITS_PER_TOKEN = 3;
/** ASCII punctuation: common pairs ("()", "=>", "};") merge; about this many chars a token. */
const PUNCT_CHARS_PER_TOKEN = 2.2;

enum Cls {
  None,
  Latin,
  Digit,
  Space,
  Newline,
  Punct,
  Han,
  Kana,
  Hangul,
  CjkPunct,
  OtherLetter,
  Symbol,
}

function classOf(cp: number): Cls {
  if (cp < 0x80) {
    if ((cp >= 0x61 && cp <= 0x7a) || (cp >= 0x41 && cp <= 0x5a)) return Cls.Latin;
    if (cp >= 0x30 && cp <= 0x39) return Cls.Digit;
    if (cp === 0x0a || cp === 0x0d) return Cls.Newline;
    if (cp === 0x20 || cp === 0x09) return Cls.Space;
    if (cp < 0x20 || cp === 0x7f) return Cls.Symbol;
    return Cls.Punct;
  }
  if (cp >= 0x00c0 && cp <= 0x024f && cp !== 0x00d7 && cp !== 0x00f7) return Cls.Latin;
  if ((cp >= 0x4e00 && cp <= 0x9fff) || (cp >= 0x3400 && cp <= 0x4dbf) || (cp >= 0x20000 && cp <= 0x2ebef) || (cp >= 0xf900 && cp <= 0xfaff)) {
    return Cls.Han;
  }
  if (cp >= 0x3040 && cp <= 0x30ff) return Cls.Kana;
  if ((cp >= 0xac00 && cp <= 0xd7af) || (cp >= 0x1100 && cp <= 0x11ff) || (cp >= 0x3130 && cp <= 0x318f)) return Cls.Hangul;
  if ((cp >= 0x3000 && cp <= 0x303f) || (cp >= 0xff00 && cp <= 0xffef)) return Cls.CjkPunct;
  if (cp === 0x00a0 || cp === 0x2002 || cp === 0x2003 || cp === 0x2009) return Cls.Space;
  if (cp >= 0x2000 && cp <= 0x2bff) return Cls.Punct; // general punctuation, arrows, math, box drawing
  if (cp >= 0x0370 && cp <= 0x1fff) return Cls.OtherLetter; // Greek, Cyrillic, Hebrew, Arabic, Indic, ...
  return Cls.Symbol;
}

/** Estimated tokens of a run of `n` characters of one class ending a word. */
function runTokens(cls: Cls, n: number, humps: number): number {
  switch (cls) {
    case Cls.Latin: {
      const base = n <= LATIN_ONE_TOKEN_MAX ? 1 : n / LATIN_CHARS_PER_TOKEN;
      return Math.max(base, humps + 1);
    }
    case Cls.Digit:
      return Math.ceil(n / DIGITS_PER_TOKEN);
    case Cls.Space:
      return n > 1 ? 1 : 0; // one space merges into the next word; indentation is one token
    case Cls.Newline:
      return 1;
    case Cls.Punct:
      return Math.ceil(n / PUNCT_CHARS_PER_TOKEN);
    case Cls.Han:
      return n * HAN;
    case Cls.Kana:
      return n * KANA;
    case Cls.Hangul:
      return n * HANGUL;
    case Cls.CjkPunct:
      return n * CJK_PUNCT;
    case Cls.OtherLetter:
      return Math.max(1, n * OTHER_LETTER);
    case Cls.Symbol:
      return n * SYMBOL;
    default:
      return 0;
  }
}

/** Estimated token count of plain text. Never throws; an empty string (or a non-string) is 0. */
export function estimateTextTokens(text: string): number {
  if (typeof text !== 'string') return 0;
  let total = 0;
  let cls: Cls = Cls.None;
  let prev: Cls = Cls.None;
  let run = 0;
  let humps = 0; // lower→upper transitions inside a Latin run (camelCase sub-words)
  let prevLower = false;
  for (let i = 0; i < text.length; i++) {
    let cp = text.charCodeAt(i);
    if (cp >= 0xd800 && cp <= 0xdbff && i + 1 < text.length) {
      const lo = text.charCodeAt(i + 1);
      if (lo >= 0xdc00 && lo <= 0xdfff) {
        cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
        i++;
      }
    }
    const c = classOf(cp);
    if (c === cls) {
      run++;
      if (c === Cls.Latin) {
        const upper = cp >= 0x41 && cp <= 0x5a;
        if (upper && prevLower) humps++;
        prevLower = !upper;
      }
      continue;
    }
    // Indentation right after a line break merges with it.
    if (!(cls === Cls.Space && prev === Cls.Newline)) total += runTokens(cls, run, humps);
    prev = cls;
    cls = c;
    run = 1;
    humps = 0;
    prevLower = !(cp >= 0x41 && cp <= 0x5a);
  }
  total += runTokens(cls, run, humps);
  return Math.ceil(total);
}

/** Framing each provider adds around a message (role markers, separators). */
const MESSAGE_OVERHEAD = 4;
const TOOL_CALL_OVERHEAD = 8;
/**
 * What one image in a tool result is counted as, whatever its size: Anthropic bills about
 * width × height / 750 tokens and scales images down to ~1.15 megapixels (≈ 1,600 tokens);
 * OpenAI's high detail stays below that for such images. An upper bound, never the base64 length.
 */
export const IMAGE_TOKENS = 1_600;

/** Estimated tokens one message costs in a request, framing included. */
export function estimateMessageTokens(message: Message): number {
  switch (message.role) {
    case 'user':
      return MESSAGE_OVERHEAD + estimateTextTokens(message.text);
    case 'assistant': {
      let n = MESSAGE_OVERHEAD + estimateTextTokens(message.text);
      for (const call of message.toolCalls) {
        n += TOOL_CALL_OVERHEAD + estimateTextTokens(call.name) + estimateTextTokens(call.rawArgs);
      }
      return n;
    }
    case 'tool':
      return MESSAGE_OVERHEAD + TOOL_CALL_OVERHEAD + estimateTextTokens(message.output) + (message.images?.length ?? 0) * IMAGE_TOKENS;
  }
}

/** Estimated tokens of the tool definitions sent with every request (requirements M6). */
export function estimateToolTokens(tools: readonly ToolSpec[]): number {
  let n = 0;
  for (const tool of tools) {
    n += TOOL_CALL_OVERHEAD + estimateTextTokens(tool.name) + estimateTextTokens(tool.description);
    n += estimateTextTokens(JSON.stringify(tool.parameters ?? {}));
  }
  return n;
}
