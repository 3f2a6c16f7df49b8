import stripAnsi from 'strip-ansi';
import { maskSecrets } from '@tandem/core';

/** Longest string kept per argument value; the rest is summarized by its length. */
export const ARG_STRING_MAX = 1000;
/** Length of a result summary. */
export const SUMMARY_MAX = 200;
/** Text beyond a kept prefix is masked this far too, so a secret cut by the truncation still goes. */
const MASK_WINDOW = 4000;
const MAX_DEPTH = 8;

export type Env = Record<string, string | undefined>;

/**
 * Hides secrets before anything reaches the audit log (requirements P6): the literal values of the
 * server's own secret-named environment variables wherever they appear, known token formats,
 * and long high-entropy runs (core's `maskSecrets`, the same as `read_env`). Strings are masked
 * one by one inside the arguments (so JSON escaping cannot hide a value), then capped.
 * `env` is read at each call, so a variable set after start-up is masked too.
 */
export function createAuditMasker(env: Env = process.env) {
  const maskText = (text: string, keep: number): string => {
    const window = text.length > keep + MASK_WINDOW ? text.slice(0, keep + MASK_WINDOW) : text;
    const masked = maskSecrets(window, { env });
    if (masked.length <= keep && window.length === text.length) return masked;
    return `${masked.slice(0, keep)}… (${text.length} chars in all)`;
  };

  const maskValue = (value: unknown, depth = 0): unknown => {
    if (typeof value === 'string') return maskText(value, ARG_STRING_MAX);
    if (value === null || typeof value !== 'object') return typeof value === 'bigint' ? String(value) : value;
    if (depth >= MAX_DEPTH) return '[nested too deep]';
    if (Array.isArray(value)) return value.slice(0, 100).map((v) => maskValue(v, depth + 1));
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value).slice(0, 100)) out[maskText(key, 200)] = maskValue(v, depth + 1);
    return out;
  };

  return {
    /** Arguments with every string masked and capped. */
    args: (args: unknown): unknown => maskValue(args),
    /** A one-line summary of a tool result: ANSI removed, masked, whitespace folded, capped. */
    summary: (output: string): string => {
      const text = typeof output === 'string' ? output : String(output);
      const plain = stripAnsi(text.slice(0, SUMMARY_MAX + MASK_WINDOW));
      const masked = maskSecrets(plain, { env }).replace(/\s+/g, ' ').trim();
      return masked.length <= SUMMARY_MAX ? masked : `${masked.slice(0, SUMMARY_MAX)}…`;
    },
    text: (text: string): string => maskText(text, MASK_WINDOW),
  };
}

export type AuditMasker = ReturnType<typeof createAuditMasker>;
