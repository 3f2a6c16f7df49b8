import { describe, expect, it } from 'vitest';
import { MAX_TOOL_NAME, mcpToolName } from './tool-names.js';

describe('mcpToolName', () => {
  it('prefixes server and tool, keeps short clean names as they are', () => {
    expect(mcpToolName('everything', 'echo')).toBe('mcp__everything__echo');
  });

  it('shortens long names with a stable hash, within 64 characters, and keeps neighbours apart', () => {
    const a = mcpToolName('a-very-long-server-name-for-testing', 'and_an_even_longer_tool_name_that_goes_on_and_on_1');
    const b = mcpToolName('a-very-long-server-name-for-testing', 'and_an_even_longer_tool_name_that_goes_on_and_on_2');
    expect(a.length).toBeLessThanOrEqual(MAX_TOOL_NAME);
    expect(a).toMatch(/^mcp__a-very-long-server-name.*_[0-9a-f]{8}$/);
    expect(a).not.toBe(b);
    expect(mcpToolName('a-very-long-server-name-for-testing', 'and_an_even_longer_tool_name_that_goes_on_and_on_1')).toBe(a);
  });

  it('replaces characters providers refuse and hashes so that "a.b" and "a_b" differ', () => {
    const dotted = mcpToolName('srv', 'get.thing');
    expect(dotted).toMatch(/^mcp__srv__get_thing_[0-9a-f]{8}$/);
    expect(dotted).not.toBe(mcpToolName('srv', 'get_thing'));
  });
});
