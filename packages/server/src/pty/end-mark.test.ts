import { describe, expect, it } from 'vitest';
import { EndMarkFilter } from './end-mark.js';
import { shellArgs } from './shell-args.js';

describe('EndMarkFilter', () => {
  it('passes the output on and drops the mark and what follows it, even when the mark is split between reads', () => {
    const filter = new EndMarkFilter();
    const { mark } = filter;
    const parts = [`done \u001b[0m ✓`, mark.slice(0, 5), mark.slice(5), '\r\n'].map((p) => Buffer.from(p));
    const out = parts.map((p) => filter.push(p));
    expect(Buffer.concat(out.map((o) => o.bytes)).toString()).toBe('done \u001b[0m ✓');
    expect(out.map((o) => o.ended)).toEqual([false, false, true, true]);
    expect(out[1]!.bytes.length).toBe(0); // the mark's beginning is held back, not passed on
    expect(filter.end().length).toBe(0);
  });

  it('gives back a held tail at the end when the mark never came (exec, SIGKILL)', () => {
    const filter = new EndMarkFilter();
    expect(filter.push(Buffer.from('last line\n\u001b]tan')).bytes.toString()).toBe('last line\n');
    expect(filter.end().toString()).toBe('\u001b]tan');
  });

  it('holds back nothing when the end only looks like an escape sequence, not the mark', () => {
    const filter = new EndMarkFilter();
    expect(filter.push(Buffer.from('colour \u001b[3')).bytes.toString()).toBe('colour \u001b[3');
    expect(filter.end().length).toBe(0);
  });

  it('is unique to each call, and the shell line carries it inside its trap', () => {
    const a = new EndMarkFilter();
    expect(a.mark).not.toBe(new EndMarkFilter().mark);
    expect(shellArgs('make', a.mark)).toEqual(['-c', `trap 'printf "%s" "${a.mark}"; read -r _ 2>/dev/null' EXIT; make`]);
    expect(() => shellArgs('make', "x'; rm -rf ~")).toThrow(/end mark/);
  });
});
