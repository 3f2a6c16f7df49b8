import { describe, expect, it } from 'vitest';
import { type Addressing, parseAddressing } from './addressing.js';

const KNOWN = ['reviewer', 'db-expert'];

describe('parseAddressing', () => {
  const cases: Array<[string, string, Addressing]> = [
    ['no address', 'fix the tests', { kind: 'floor', text: 'fix the tests' }],
    ['an agent, then the message', '@reviewer look at main.ts', { kind: 'agent', target: 'reviewer', rest: 'look at main.ts' }],
    ['a dashed name', '@db-expert why is it slow?', { kind: 'agent', target: 'db-expert', rest: 'why is it slow?' }],
    ['@commander recalls', '@commander take it from here', { kind: 'agent', target: 'commander', rest: 'take it from here' }],
    ['@commander alone', '@commander', { kind: 'agent', target: 'commander', rest: '' }],
    ['a comma after the name', '@reviewer, again please', { kind: 'agent', target: 'reviewer', rest: 'again please' }],
    ['a colon after the name', '@reviewer: again', { kind: 'agent', target: 'reviewer', rest: 'again' }],
    ['upper case name', '@Reviewer hi', { kind: 'agent', target: 'reviewer', rest: 'hi' }],
    ['leading whitespace', '  @reviewer hi', { kind: 'agent', target: 'reviewer', rest: 'hi' }],
    ['a multi-line rest', '@reviewer first\nsecond', { kind: 'agent', target: 'reviewer', rest: 'first\nsecond' }],
    ['@ in the middle is no address', 'ask @reviewer later', { kind: 'floor', text: 'ask @reviewer later' }],
    ['@ followed by a space', '@ home now', { kind: 'floor', text: '@ home now' }],
    ['a double @', '@@reviewer hi', { kind: 'floor', text: '@@reviewer hi' }],
    ['an e-mail-like start', '@reviewer.example.com is down', { kind: 'floor', text: '@reviewer.example.com is down' }],
  ];

  it.each(cases)('%s', (_label, text, expected) => {
    expect(parseAddressing(text, KNOWN)).toEqual(expected);
  });

  it('an unknown name is an error listing every agent that may be addressed', () => {
    const result = parseAddressing('@revewer hi', KNOWN);
    expect(result).toMatchObject({ kind: 'unknown', name: 'revewer' });
    if (result.kind === 'unknown')
      expect(result.message).toBe('no agent is called "revewer": address one of @commander, @reviewer, @db-expert (tandem agents lists the definitions)');
    expect(parseAddressing('@someone', [])).toMatchObject({ kind: 'unknown', message: expect.stringContaining('address one of @commander (') });
  });
});
