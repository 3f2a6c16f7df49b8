import stripAnsi from 'strip-ansi';
import { EnvSecrets, maskSecrets, type EnvSecret } from '@tandem/core';

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
 * `env` is read at each call (each `args`, `summary`, `text` or `entry`), so a variable set after
 * start-up is masked too; within one call its secret list is found once for all the strings, and
 * whether a variable's name is secret is decided once per name (EnvSecrets).
 */
export function createAuditMasker(env: Env = process.env) {
  const envSecrets = new EnvSecrets(env);

  const maskText = (text: string, keep: number, secrets: readonly EnvSecret[]): string => {
    const window = text.length > keep + MASK_WINDOW ? text.slice(0, keep + MASK_WINDOW) : text;
    const masked = maskSecrets(window, { secrets });
    if (masked.length <= keep && window.length === text.length) return masked;
    return `${masked.slice(0, keep)}… (${text.length} chars in all)`;
  };

  const maskValue = (value: unknown, secrets: readonly EnvSecret[], depth = 0): unknown => {
    if (typeof value === 'string') return maskText(value, ARG_STRING_MAX, secrets);
    if (value === null || typeof value !== 'object') return typeof value === 'bigint' ? String(value) : value;
    if (depth >= MAX_DEPTH) return '[nested too deep]';
    if (Array.isArray(value)) return value.slice(0, 100).map((v) => maskValue(v, secrets, depth + 1));
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value).slice(0, 100)) out[maskText(key, 200, secrets)] = maskValue(v, secrets, depth + 1);
    return out;
  };

  const summarize = (output: string, secrets: readonly EnvSecret[]): string => {
    const text = typeof output === 'string' ? output : String(output);
    const plain = stripAnsi(text.slice(0, SUMMARY_MAX + MASK_WINDOW));
    const masked = maskSecrets(plain, { secrets }).replace(/\s+/g, ' ').trim();
    return masked.length <= SUMMARY_MAX ? masked : `${masked.slice(0, SUMMARY_MAX)}…`;
  };

  return {
    /** Arguments with every string masked and capped. */
    args: (args: unknown): unknown => maskValue(args, envSecrets.current()),
    /** A one-line summary of a tool result: ANSI removed, masked, whitespace folded, capped. */
    summary: (output: string): string => summarize(output, envSecrets.current()),
    text: (text: string): string => maskText(text, MASK_WINDOW, envSecrets.current()),
    /** `args` and `summary` of one tool call against one reading of the environment. */
    entry: (args: unknown, output: string): { args: unknown; summary: string } => {
      const secrets = envSecrets.current();
      return { args: maskValue(args, secrets), summary: summarize(output, secrets) };
    },
  };
}

export type AuditMasker = ReturnType<typeof createAuditMasker>;
