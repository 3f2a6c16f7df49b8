import { it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { check } from './blacklist-corpus.test-helper.js';
import * as a from './blacklist-corpus-feeding.test.js';
import * as b from './blacklist-corpus-expansion.test.js';
import * as c from './blacklist-corpus-shell-input.test.js';
import * as d from './blacklist-corpus-inline-code.test.js';
import * as e from './blacklist-corpus-dd-chmod.test.js';
it('dump', () => {
  const out: string[] = [];
  for (const mod of [a, b, c, d, e]) for (const [k, v] of Object.entries(mod)) {
    if (!Array.isArray(v)) continue;
    out.push(`## ${k} (${v.length})`);
    for (const cmd of v as string[]) { const r = check(cmd); out.push(`${JSON.stringify(cmd)}\n   -> ${r.blocked ? `[${r.category}: ${r.pattern}] ${r.message.replace(/^.*?\`: /s,'').replace(/ This command cannot.*$/s,'')}` : 'ALLOWED'}`); }
  }
  writeFileSync('/tmp/h5-dump.txt', out.join('\n'));
});
