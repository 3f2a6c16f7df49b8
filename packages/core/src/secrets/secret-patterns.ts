/**
 * What counts as a secret: names of environment variables that usually hold one, and the
 * shapes of well-known credential formats. Shared by `read_env` and the audit log (requirements P6).
 */

/** Name fragments; a variable whose name contains one (case-insensitive) is treated as secret. */
const SECRET_NAME_PARTS = [
  'KEY',
  'TOKEN',
  'SECRET',
  'PASSWORD',
  'PASSWD',
  'PASSPHRASE',
  'PWD_',
  'CREDENTIAL',
  'AUTH',
  'COOKIE',
  'SESSION',
  'PRIVATE',
  'SIGNATURE',
  'CERT',
  'DSN',
  'CONNECTION_STRING',
  'DATABASE_URL',
  'WEBHOOK',
];

/** Names that contain a fragment above but are harmless and useful to show. */
const NOT_SECRET_NAMES = [
  /^KEYBOARD/,
  /^KEYMAP$/,
  /^XAUTHORITY$/,
  /^SSH_AUTH_SOCK$/,
  /^GPG_AGENT_INFO$/,
  /^XDG_SESSION_/,
  /^DBUS_SESSION_BUS_/,
  /^SESSION_MANAGER$/,
  /^DESKTOP_SESSION$/,
  /^GDMSESSION$/,
  /^TERM_SESSION_ID$/,
];

export function isSecretName(name: string): boolean {
  const upper = name.toUpperCase();
  if (NOT_SECRET_NAMES.some((re) => re.test(upper))) return false;
  if (/(^|_)PWD$/.test(upper) && upper !== 'PWD' && upper !== 'OLDPWD') return true;
  // AUTHOR (GIT_AUTHOR_NAME) is not AUTH.
  const scrubbed = upper.replaceAll('AUTHOR', '');
  return SECRET_NAME_PARTS.some((part) => scrubbed.includes(part));
}

export interface TokenPattern {
  kind: string;
  regex: RegExp;
}

/** Known credential formats. Each regex is global and matches the whole token. */
export const TOKEN_PATTERNS: readonly TokenPattern[] = [
  { kind: 'pem private key', regex: /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|$)/g },
  { kind: 'anthropic key', regex: /\bsk-ant-[A-Za-z0-9_-]{16,}/g },
  { kind: 'openai key', regex: /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/g },
  { kind: 'github token', regex: /\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})/g },
  { kind: 'gitlab token', regex: /\bglpat-[A-Za-z0-9_-]{20,}/g },
  { kind: 'slack token', regex: /\bxox[abposr]-[A-Za-z0-9-]{10,}/g },
  { kind: 'aws access key id', regex: /\b(?:AKIA|ASIA)[A-Z0-9]{16}\b/g },
  { kind: 'google api key', regex: /\bAIza[A-Za-z0-9_-]{35}/g },
  { kind: 'stripe key', regex: /\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}/g },
  { kind: 'groq key', regex: /\bgsk_[A-Za-z0-9]{20,}/g },
  { kind: 'xai key', regex: /\bxai-[A-Za-z0-9]{20,}/g },
  { kind: 'jwt', regex: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g },
  { kind: 'bearer token', regex: /\b(?<=Bearer\s+)[A-Za-z0-9._~+/-]{16,}=*/g },
  { kind: 'url password', regex: /(?<=[a-z][a-z0-9+.-]*:\/\/[^\s:/@]+:)[^\s@/]{3,}(?=@)/gi },
];

/** Long hex or base64-ish runs with enough variety to be a key rather than a word or a path. */
const HIGH_ENTROPY = /\b[A-Za-z0-9+/_-]{32,}={0,2}/g;

export function looksHighEntropy(candidate: string): boolean {
  if (candidate.length < 32) return false;
  if (looksLikePath(candidate)) return false;
  if (/^[0-9a-f]+$/i.test(candidate)) {
    // Hex: 40 chars is a git sha, which is not a secret; keys are usually 32 or 64+.
    return candidate.length !== 40 && new Set(candidate.toLowerCase()).size >= 10;
  }
  const classes = [/[a-z]/, /[A-Z]/, /[0-9]/].filter((re) => re.test(candidate)).length;
  if (classes < 3) return false;
  return shannonBitsPerChar(candidate) >= 4;
}

/**
 * A file path rather than a key: three or more `/`-separated parts, at least two thirds of them
 * lowercase names (`packages`, `mcp-server.mjs`), and no part that is itself a long mixed run
 * (a key kept in a path still counts). Without this a path with one capital and one digit in it,
 * such as a temporary directory's `tmp.W3xQ`, read as 60 random characters and was masked.
 * Base64 keys with a `/` or two (`wJalrXUtnFEMI/K7MDENG/bPxRfiCY…`) have mixed-case parts and stay keys.
 */
function looksLikePath(candidate: string): boolean {
  const parts = candidate.split('/').filter((part) => part !== '');
  if (parts.length < 3) return false;
  const names = parts.filter((part) => /^[a-z0-9._-]+$/.test(part)).length;
  if (names * 3 < parts.length * 2) return false;
  return !parts.some((part) => part.length >= 20 && /[a-z]/.test(part) && /[A-Z]/.test(part) && /[0-9]/.test(part));
}

export function highEntropyRuns(text: string): string[] {
  return [...text.matchAll(HIGH_ENTROPY)].map((m) => m[0]).filter(looksHighEntropy);
}

function shannonBitsPerChar(text: string): number {
  const counts = new Map<string, number>();
  for (const ch of text) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) {
    const p = n / text.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}
