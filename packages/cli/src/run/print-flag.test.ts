import { describe, expect, it } from 'vitest';
import { printAsRun } from './print-flag.js';

describe('printAsRun', () => {
  it('puts run first when -p / --print comes before any command word', () => {
    expect(printAsRun(['-p', 'hi'])).toEqual(['run', '-p', 'hi']);
    expect(printAsRun(['--cwd', 'x', '--print', 'hi', '--output-format', 'json'])).toEqual(['run', '--cwd', 'x', '--print', 'hi', '--output-format', 'json']);
    expect(printAsRun(['--print=hi'])).toEqual(['run', '--print=hi']);
    expect(printAsRun(['-phi'])).toEqual(['run', '-phi']);
  });

  it('leaves everything else alone', () => {
    expect(printAsRun([])).toEqual([]);
    expect(printAsRun(['attach', '-p'])).toEqual(['attach', '-p']);
    expect(printAsRun(['--port', '0', 'serve'])).toEqual(['--port', '0', 'serve']);
    expect(printAsRun(['--name', '-p'])).toEqual(['--name', '-p']);
    expect(printAsRun(['--', '-p'])).toEqual(['--', '-p']);
  });
});
