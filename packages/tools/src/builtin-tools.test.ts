import { describe, expect, it } from 'vitest';
import { builtinTools } from './builtin-tools.js';
import { dangerOf, toToolSpec } from '@tandem/core';

const EXPECTED: Record<string, { danger: string; readOnly: boolean }> = {
  read_file: { danger: 'safe', readOnly: true },
  write_file: { danger: 'medium', readOnly: false },
  edit_file: { danger: 'medium', readOnly: false },
  insert_line: { danger: 'medium', readOnly: false },
  delete_lines: { danger: 'medium', readOnly: false },
  delete_file: { danger: 'dangerous', readOnly: false },
  list_directory: { danger: 'safe', readOnly: true },
  get_file_info: { danger: 'safe', readOnly: true },
  search_files: { danger: 'safe', readOnly: true },
  grep_files: { danger: 'safe', readOnly: true },
  run_command: { danger: 'dangerous', readOnly: false },
  read_job_output: { danger: 'safe', readOnly: true },
  stop_job: { danger: 'medium', readOnly: false },
  read_env: { danger: 'medium', readOnly: true },
  self_clone: { danger: 'dangerous', readOnly: false },
  web_search: { danger: 'safe', readOnly: true },
  web_fetch: { danger: 'medium', readOnly: true },
  get_calendar_events: { danger: 'safe', readOnly: true },
  create_routine: { danger: 'medium', readOnly: false },
  list_routines: { danger: 'safe', readOnly: true },
  cancel_routine: { danger: 'medium', readOnly: false },
  whatsapp_send: { danger: 'medium', readOnly: false },
  whatsapp_search: { danger: 'safe', readOnly: true },
  whatsapp_latest: { danger: 'safe', readOnly: true },
  whatsapp_messages: { danger: 'safe', readOnly: true },
  configure_provider: { danger: 'dangerous', readOnly: false },
};

describe('builtinTools', () => {
  it('offers every built-in tool once, with the danger level and read-only flag of requirements T', () => {
    const tools = builtinTools();
    expect(tools.map((t) => t.name).sort()).toEqual(Object.keys(EXPECTED).sort());
    for (const tool of tools) {
      expect({ danger: dangerOf(tool, {}), readOnly: tool.readOnly }, tool.name).toEqual(EXPECTED[tool.name]);
    }
  });

  it('gives each tool a description that says when to prefer another tool, and an object JSON Schema', () => {
    for (const tool of builtinTools()) {
      expect(tool.description.length, tool.name).toBeGreaterThan(80);
      expect(tool.description, tool.name).toMatch(/Prefer|prefer|Use it|Use read_job_output/);
      const spec = toToolSpec(tool);
      expect(spec.parameters.type, tool.name).toBe('object');
      expect(spec.parameters.$schema).toBeUndefined();
    }
  });

  it('returns a fresh array each call', () => {
    const a = builtinTools();
    a.pop();
    expect(builtinTools()).toHaveLength(Object.keys(EXPECTED).length);
  });
});
