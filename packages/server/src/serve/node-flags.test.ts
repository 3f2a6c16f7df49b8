import { describe, expect, it } from 'vitest';
import { SERVER_NODE_FLAGS, serverNodeFlags } from './node-flags.js';

describe('serverNodeFlags', () => {
  it('adds the server flags when neither node arguments nor NODE_OPTIONS set them', () => {
    expect(serverNodeFlags(['--enable-source-maps'], '--no-warnings')).toEqual([...SERVER_NODE_FLAGS]);
  });

  it('leaves out a flag the user set, in either spelling, in the arguments or NODE_OPTIONS', () => {
    expect(serverNodeFlags(['--max-semi-space-size=16'], '')).toEqual(['--liftoff-only', '--interrupt-budget=540672']);
    expect(serverNodeFlags([], '--inspect --max_semi_space_size=32')).toEqual(['--liftoff-only', '--interrupt-budget=540672']);
    expect(serverNodeFlags(['--no-liftoff-only'], '')).toEqual(['--max-semi-space-size=4', '--interrupt-budget=540672']);
    expect(serverNodeFlags([], '--interrupt_budget=67584')).toEqual(['--max-semi-space-size=4', '--liftoff-only']);
    expect(serverNodeFlags(['--liftoff_only', '--max-semi-space-size=8', '--interrupt-budget=1000'], '')).toEqual([]);
  });
});
