/**
 * Fork bombs: a shell function that calls itself in a pipe or in the background
 * (`:(){ :|:& };:`, `bomb() { bomb | bomb & }; bomb`, `function f { f & f; }`), and the classic
 * one-liners in other languages. Checked on raw text, since the lexer splits a function body
 * into pieces that each look harmless. Linear in the length of the text: each definition's body
 * ends at the next `}`, found by binary search over the brace positions.
 */
const FUNCTION_HEADER = /(?:^|[\s;&|(){}])(?:function\s+([^\s(){}|&;<>'"]+)\s*(?:\(\s*\))?|([^\s(){}|&;<>'"]+)\s*\(\s*\))\s*\{/g;

const ONE_LINERS = [/fork\s+while\s+fork/, /while\s*\(?\s*(?:1|true|True)\s*\)?\s*:?\s*os\.fork\(\)/, /os\.fork\(\)\s+while\s+(?:1|True)/];

export function looksLikeForkBomb(text: string): boolean {
  const closers: number[] = [];
  for (let i = text.indexOf('}'); i !== -1; i = text.indexOf('}', i + 1)) closers.push(i);
  if (closers.length > 0) {
    for (const match of text.matchAll(FUNCTION_HEADER)) {
      const name = match[1] ?? match[2];
      const bodyStart = match.index + match[0].length;
      const close = firstAfter(closers, bodyStart);
      if (!name || close === undefined) continue;
      const body = text.slice(bodyStart, close);
      if (/[|&]/.test(body) && callsItself(body, name)) return true;
    }
  }
  return ONE_LINERS.some((re) => re.test(text));
}

function callsItself(body: string, name: string): boolean {
  const call = new RegExp(`(?:^|[\\s;|&({])${escapeRegExp(name)}(?=$|[\\s;|&)}])`);
  return call.test(body);
}

function firstAfter(sorted: number[], position: number): number | undefined {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! < position) lo = mid + 1;
    else hi = mid;
  }
  return sorted[lo];
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
