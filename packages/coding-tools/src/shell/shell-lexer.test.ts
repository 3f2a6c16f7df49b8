import { describe, expect, it } from 'vitest';
import { checkCommandBlacklist } from './command-blacklist.js';
import { lexShell } from './shell-lexer.js';

/** Deterministic pseudo-random numbers, so a failure reproduces. */
function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const ALPHABET = [
  ' ',
  '\t',
  '\n',
  ';',
  '&',
  '|',
  '(',
  ')',
  '{',
  '}',
  '<',
  '>',
  '$',
  '`',
  "'",
  '"',
  '\\',
  '#',
  '*',
  '~',
  '/',
  '=',
  '-',
  'r',
  'm',
  'f',
  'x',
  '1',
  'sudo',
  'rm -rf /',
  '$(',
  '${',
  "$'",
  '<<',
  'EOF',
  ':(){',
];

describe('lexShell', () => {
  it('separates words, redirections, substitutions and here-documents', () => {
    const [first, second] = lexShell('FOO=1 cat <<EOF 2>&1 "$(date)" `id` > out.txt\nbody $(not run)\nEOF\necho done');
    expect(first).toMatchObject({
      words: ['FOO=1', 'cat', '$(date)', '`id`'],
      redirects: [
        { op: '<<', target: 'EOF' },
        { op: '>&', target: '1' },
        { op: '>', target: 'out.txt' },
      ],
      substitutions: ['date', 'id'],
      heredocs: ['body $(not run)'],
    });
    expect(second).toMatchObject({ words: ['echo', 'done'], text: 'echo done' });
  });

  it('removes quoting the way the shell does', () => {
    expect(lexShell(`a'b c'"d e"\\ f $'\\x41\\n' "x\\"y" '\\n'`)[0]!.words).toEqual(['ab cd e f', 'A\n', 'x"y', '\\n']);
  });

  it('never throws and always terminates on random input', () => {
    const random = prng(42);
    for (let n = 0; n < 2000; n++) {
      const length = Math.floor(random() * 40);
      let input = '';
      for (let i = 0; i < length; i++) input += ALPHABET[Math.floor(random() * ALPHABET.length)];
      expect(() => lexShell(input), JSON.stringify(input)).not.toThrow();
      expect(() => checkCommandBlacklist(input, { home: '/home/t' }), JSON.stringify(input)).not.toThrow();
    }
  });

  it('stays linear on large hostile input', () => {
    const inputs = ['a'.repeat(400_000), 'x() {'.repeat(80_000), '"'.repeat(400_001), `echo ${'$(ls) '.repeat(50_000)}`];
    for (const input of inputs) expect(checkCommandBlacklist(input, { home: '/home/t' }).blocked).toBe(false);
    // Inputs that would make a careless regex or path tracker quadratic.
    const hostile = [
      'read HOME '.repeat(20_000),
      `python3 -c '${'import '.repeat(20_000)}'`,
      `perl -e '${'open '.repeat(20_000)}'`,
      `${'cd a && '.repeat(10_000)}ls`,
      `${'echo x | '.repeat(10_000)}cat`,
    ];
    for (const input of hostile) expect(checkCommandBlacklist(input, { home: '/home/t', workspace: '/home/t/ws' }).blocked).toBe(false);
  });

  it('refuses nesting too deep to follow instead of recursing without end', () => {
    const deep = `${'$('.repeat(50)}ls${')'.repeat(50)}`;
    expect(checkCommandBlacklist(deep)).toMatchObject({ blocked: true, pattern: 'nesting' });
  });
});
