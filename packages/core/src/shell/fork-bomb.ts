/**
 * Fork bombs: a shell function that calls itself in a pipe or in the background
 * (`:(){ :|:& };:`, `bomb() { bomb | bomb & }; bomb`, `function f { f & f; }`), and the classic
 * one-liners in other languages. Checked on raw text, since the lexer splits a function body
 * into pieces that each look harmless.
 */
const FUNCTION_DEFINITION = /(?:^|[\s;&|(){}])(?:function\s+([^\s(){}|&;<>'"]+)\s*(?:\(\s*\))?|([^\s(){}|&;<>'"]+)\s*\(\s*\))\s*\{([\s\S]*?)\}/g;

const ONE_LINERS = [/fork\s+while\s+fork/, /while\s*\(?\s*(?:1|true)\s*\)?\s*[:;{]?\s*(?:do\s+)?[^;]*\bfork\s*\(/, /os\.fork\(\)[\s\S]*while\s+(?:1|True)|while\s+(?:1|True)\s*:\s*os\.fork\(\)/];

export function looksLikeForkBomb(text: string): boolean {
  for (const match of text.matchAll(FUNCTION_DEFINITION)) {
    const name = match[1] ?? match[2];
    const body = match[3] ?? '';
    if (!name) continue;
    const call = new RegExp(`(?:^|[\\s;|&({])${escapeRegExp(name)}(?=$|[\\s;|&)}])`, 'g');
    const calls = [...body.matchAll(call)].length;
    if (calls >= 1 && /[|&]/.test(body)) return true;
  }
  return ONE_LINERS.some((re) => re.test(text));
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
