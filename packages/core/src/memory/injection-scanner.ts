/**
 * Prompt-injection scan for memory writes (requirements H5). Memory is injected into the system prompt
 * of later turns, so text that tries to instruct the model is refused before it is stored.
 *
 * Severity:
 * - `block`: instructions aimed at the model (override, persona switch, "new instructions:",
 *   secrecy toward the user, exfiltration asks), chat-template role tags, hidden Unicode (zero
 *   width, bidi overrides, tag characters) and encoded text that decodes to any of those.
 * - `mention`: the same phrases when they are quoted (in "…", '…', “…”, «…» or `…`) in a note
 *   that is evidently *about* such text (it also names injection, jailbreak, attack, payload,
 *   security, detection, example, …). The write is accepted and the finding reported.
 *
 * Trade-off: a security project legitimately stores notes like `our filter must catch
 * "ignore previous instructions"`; refusing them would make memory useless there. Accepting
 * quoted phrases opens a small hole (an attacker can quote an instruction and add the word
 * "example"), which is why mentions are reported, hidden Unicode and role tags are never
 * excused, and the prompt section presents memory as quoted data, not instructions.
 */
export type InjectionSeverity = 'block' | 'mention';

export interface InjectionFinding {
  rule: string;
  severity: InjectionSeverity;
  /** The matched text (hidden characters shown as U+XXXX). */
  excerpt: string;
}

export interface InjectionScan {
  verdict: 'clean' | 'mention' | 'blocked';
  findings: InjectionFinding[];
  /** One sentence for a `memory_quarantined` event or a refused write. */
  reason: string;
}

const SECRETS = String.raw`\b(?:api[\s_-]?keys?|access\s+tokens?|tokens?|passwords?|secrets?|credentials?|private\s+keys?|\.env\b|ssh\s+keys?|cookies?)`;

/** Up to 80 characters within one sentence (a dot inside a word, as in .env, does not end it). */
const GAP = String.raw`(?:[^.\n]|\.(?=\S)){0,80}`;

const PHRASE_RULES: Array<{ rule: string; re: RegExp }> = [
  {
    rule: 'instruction_override',
    re: /\b(?:ignore|disregard|forget|override|bypass)\s+(?:(?:all|any|the|your|of|these|those|my)\s+){0,3}(?:previous|prior|above|earlier|preceding|former|system|original)\s+(?:instructions?|prompts?|rules?|messages?|directions?|guidelines?|context)\b/g,
  },
  { rule: 'instruction_override', re: /\b(?:disregard|ignore|forget)\s+(?:the\s+|your\s+)?(?:system\s+prompt|guidelines|safety\s+rules)\b/g },
  { rule: 'persona_switch', re: /\byou\s+are\s+now\s+(?:a|an|the|no\s+longer|dan|my|free|unrestricted|jailbroken)\b/g },
  { rule: 'persona_switch', re: /\bfrom\s+now\s+on,?\s+you\s+(?:are|will|must|shall|should)\b/g },
  { rule: 'new_instructions', re: /\b(?:new|updated|real|actual|secret)\s+(?:system\s+)?instructions?\s*:/g },
  { rule: 'new_instructions', re: /(?:^|\n)\s*system\s+prompt\s*:/g },
  {
    rule: 'secrecy',
    re: /\b(?:do\s+not|don't|dont|never)\s+(?:tell|inform|alert|warn|notify|mention\s+(?:this\s+|it\s+)?to|reveal\s+(?:this\s+|it\s+)?to|show\s+(?:this\s+|it\s+)?to)\s+(?:the\s+)?user\b/g,
  },
  { rule: 'exfiltration', re: new RegExp(`\\b(?:leak|exfiltrate|steal)\\b${GAP}${SECRETS}`, 'g') },
  {
    // Moving secrets somewhere is only suspicious with a destination outside: a URL, an address, "to me".
    rule: 'exfiltration',
    re: new RegExp(
      `\\b(?:send|post|upload|forward|transmit|e-?mail|paste)\\b${GAP}${SECRETS}${GAP}(?:https?://|\\b[\\w.+-]+@[\\w-]+\\.[\\w.]+|\\bto\\s+(?:me|us|this\\s+(?:url|address|endpoint|webhook)))`,
      'g',
    ),
  },
  { rule: 'exfiltration', re: /\b(?:curl|wget|invoke-webrequest|fetch)\b[^\n]{0,120}(?:\$\{?[a-z_]*(?:key|token|secret|passw)|\.env\b|id_rsa|\.ssh\/)/g },
  { rule: 'exfiltration', re: /!\[[^\]\n]*\]\(\s*https?:\/\/[^)\s]+\?[^)\s]*=/g },
];

const ROLE_TAG_RULES: Array<{ rule: string; re: RegExp }> = [
  { rule: 'role_tag', re: /<\s*\/?\s*(?:system|assistant|developer|im_start|im_end|tool_call|instructions?)\s*>/g },
  { rule: 'role_tag', re: /<\|\s*(?:im_start|im_end|system|endoftext|start_header_id|end_header_id|eot_id)\s*\|>/g },
  { rule: 'role_tag', re: /\[\/?\s*(?:inst|sys|system)\s*\]|<<\s*\/?sys\s*>>/g },
  { rule: 'role_tag', re: /(?:^|\n)\s*#{2,}\s*(?:(?:system|instructions?|assistant)\s*:|system\s*(?:\n|$))/g },
];

const META_CONTEXT =
  /\b(?:inject\w*|jailbreak\w*|attack\w*|payload\w*|security|detect\w*|filter\w*|example\w*|red[\s-]?team\w*|phras\w*|pattern\w*|malicious|adversarial|test\s+case\w*|scanner|sanitiz\w*|owasp)\b/;

/** Zero-width and invisible formatting characters, bidi controls, tag characters. */
const HIDDEN = /[\u200b\u200c\u200e\u200f\u2060-\u2064\u180e\u202a-\u202e\u2066-\u2069\ufeff]|\udb40[\udc00-\udc7f]/g;
/** A zero-width joiner between two letters (not inside an emoji sequence). */
const HIDDEN_ZWJ = /(?<=[\p{L}\p{N}])\u200d(?=[\p{L}\p{N}])/gu;

const QUOTED = /"[^"\n]{1,400}"|“[^”\n]{1,400}”|«[^»\n]{1,400}»|`[^`\n]{1,400}`|(?<=^|[\s([:,])'[^'\n]{1,400}'(?=$|[\s).,;:!?\]])/g;

/** Removes hidden characters (used on text we store even when it is not scanned as a note). */
export function stripHiddenCharacters(text: string): string {
  return text.replace(HIDDEN, '').replace(HIDDEN_ZWJ, '');
}

function normalise(text: string): string {
  return stripHiddenCharacters(text.normalize('NFKC'))
    .replace(/[ \t]+/g, ' ')
    .toLowerCase();
}

function showHidden(s: string): string {
  return [...s].map((ch) => (ch.match(HIDDEN) || ch === '\u200d' ? `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}` : ch)).join('');
}

function quotedSpans(text: string): Array<[number, number]> {
  return [...text.matchAll(QUOTED)].map((m) => [m.index, m.index + m[0].length]);
}

function scanPhrases(text: string, findings: InjectionFinding[], depth: number): void {
  const spans = quotedSpans(text);
  const isMeta = META_CONTEXT.test(text);
  const inQuotes = (start: number, end: number) => spans.some(([s, e]) => start >= s && end <= e);
  for (const { rule, re } of PHRASE_RULES) {
    for (const m of text.matchAll(re)) {
      const quoted = inQuotes(m.index, m.index + m[0].length);
      findings.push({ rule, severity: quoted && isMeta && depth === 0 ? 'mention' : 'block', excerpt: m[0].slice(0, 120) });
    }
  }
  for (const { rule, re } of ROLE_TAG_RULES) {
    for (const m of text.matchAll(re)) {
      const quoted = inQuotes(m.index, m.index + m[0].length);
      findings.push({ rule, severity: quoted && isMeta && depth === 0 ? 'mention' : 'block', excerpt: m[0].trim().slice(0, 120) });
    }
  }
}

/** Long base64 / hex / percent / entity runs that decode to readable text are rescanned. */
function scanEncodings(text: string, findings: InjectionFinding[]): void {
  const decoders: Array<{ re: RegExp; decode: (s: string) => string }> = [
    { re: /[a-z0-9+/]{40,}={0,2}/gi, decode: (s) => Buffer.from(s, 'base64').toString('utf8') },
    { re: /(?:\\x[0-9a-f]{2}){12,}/gi, decode: (s) => Buffer.from(s.replace(/\\x/gi, ''), 'hex').toString('utf8') },
    { re: /(?:%[0-9a-f]{2}){12,}/gi, decode: (s) => safeDecodeURI(s) },
    {
      re: /(?:&#x?[0-9a-f]+;){8,}/gi,
      decode: (s) => s.replace(/&#(x?)([0-9a-f]+);/gi, (_, x: string, n: string) => String.fromCodePoint(parseInt(n, x ? 16 : 10) || 32)),
    },
  ];
  for (const { re, decode } of decoders) {
    for (const m of text.matchAll(re)) {
      const decoded = decode(m[0]);
      if (!looksLikeText(decoded)) continue;
      const inner: InjectionFinding[] = [];
      scanPhrases(normalise(decoded), inner, 1);
      if (inner.length > 0 || /\b(?:instructions?|prompt|assistant|system)\b/i.test(decoded)) {
        findings.push({ rule: 'encoded_instructions', severity: 'block', excerpt: `${m[0].slice(0, 40)}… → ${decoded.slice(0, 80)}` });
      }
    }
  }
}

function looksLikeText(s: string): boolean {
  if (s.length < 12) return false;
  let printable = 0;
  for (const ch of s) if (/[\p{L}\p{N}\p{P}\s]/u.test(ch)) printable++;
  return printable / [...s].length > 0.9 && /[a-z]{3,}\s+[a-z]{2,}/i.test(s);
}

function safeDecodeURI(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return '';
  }
}

/** Scans text about to be written to memory. Never throws. */
export function scanForInjection(text: string): InjectionScan {
  const findings: InjectionFinding[] = [];
  const hidden = [...(text.match(HIDDEN) ?? []), ...(text.match(HIDDEN_ZWJ) ?? [])];
  if (hidden.length > 0) {
    const kinds = [...new Set(hidden.map((h) => showHidden(h)))].slice(0, 6).join(', ');
    findings.push({ rule: 'hidden_unicode', severity: 'block', excerpt: `${hidden.length} hidden character(s): ${kinds}` });
  }
  scanPhrases(normalise(text), findings, 0);
  // Encodings are case-sensitive (base64): scan the text before lower-casing.
  scanEncodings(stripHiddenCharacters(text.normalize('NFKC')), findings);
  const blocked = findings.filter((f) => f.severity === 'block');
  const verdict = blocked.length ? 'blocked' : findings.length ? 'mention' : 'clean';
  const reason =
    verdict === 'blocked'
      ? `refused: the text looks like a prompt injection (${[...new Set(blocked.map((f) => f.rule))].join(', ')}: "${blocked[0]!.excerpt}")`
      : verdict === 'mention'
        ? `accepted: quotes injection-like text in a note about it (${[...new Set(findings.map((f) => f.rule))].join(', ')})`
        : 'clean';
  return { verdict, findings, reason };
}
