import { describe, expect, it } from 'vitest';
import { floorAfterAnswer, type Route, routeUserMessage } from './floor.js';

const AGENTS = ['pair', 'reviewer'];

describe('routeUserMessage', () => {
  const cases: Array<[string, string, string, Route]> = [
    ['un-addressed goes to the commander holding the floor', 'hi', 'commander', { ok: true, agent: 'commander', text: 'hi', floor: 'commander' }],
    ['un-addressed goes to the agent holding the floor', 'next step?', 'pair', { ok: true, agent: 'pair', text: 'next step?', floor: 'pair' }],
    ['@NAME goes to that agent; the floor stays', '@reviewer check it', 'pair', { ok: true, agent: 'reviewer', text: 'check it', floor: 'pair' }],
    ['@commander recalls the commander with the floor', '@commander status?', 'pair', { ok: true, agent: 'commander', text: 'status?', floor: 'commander' }],
    ['@commander alone only takes the floor back', '@commander', 'pair', { ok: true, agent: 'commander', text: '', floor: 'commander' }],
    [
      '@NAME with nothing after it is refused',
      '@reviewer',
      'commander',
      { ok: false, message: 'nothing to send to @reviewer: write the message after the name' },
    ],
    [
      'an unknown name is refused with the names',
      '@ghost hi',
      'pair',
      { ok: false, message: 'no agent is called "ghost": address one of @commander, @pair, @reviewer (tandem agents lists the definitions)' },
    ],
  ];
  it.each(cases)('%s', (_label, text, floor, expected) => {
    expect(routeUserMessage(text, floor, AGENTS)).toEqual(expected);
  });
});

describe('floorAfterAnswer', () => {
  it('the floor holder hands back with a strict marker; the marker is removed from its answer', () => {
    expect(floorAfterAnswer('pair', 'pair', 'Done.\n<handback />')).toEqual({ answer: 'Done.', floor: 'commander', handedBack: true });
  });

  it('a stray marker in prose or code keeps the floor and the answer as written', () => {
    const prose = 'I will write <handback /> when done.';
    expect(floorAfterAnswer('pair', 'pair', prose)).toEqual({ answer: prose, floor: 'pair', handedBack: false });
    const code = 'Example:\n```\n<handback />';
    expect(floorAfterAnswer('pair', 'pair', code)).toEqual({ answer: code, floor: 'pair', handedBack: false });
  });

  it('an agent without the floor cannot move it (its marker is still not shown); the commander never parses one', () => {
    expect(floorAfterAnswer('pair', 'reviewer', 'ok\n<handback />')).toEqual({ answer: 'ok', floor: 'pair', handedBack: false });
    expect(floorAfterAnswer('commander', 'commander', 'x\n<handback />')).toEqual({ answer: 'x\n<handback />', floor: 'commander', handedBack: false });
  });
});
