import { describe, expect, it } from 'vitest';
import { externalCommandLine, programOf } from './external-command.js';
import { TerminalText } from './terminal-text.js';

describe('externalCommandLine', () => {
  it('puts "$TANDEM_TASK" where {task} is (bare or quoted), or appends it', () => {
    expect(externalCommandLine('claude -p {task}')).toBe('claude -p "$TANDEM_TASK"');
    expect(externalCommandLine("codex exec '{task}' --json")).toBe('codex exec "$TANDEM_TASK" --json');
    expect(externalCommandLine('gemini -p "{task}"')).toBe('gemini -p "$TANDEM_TASK"');
    expect(externalCommandLine('opencode run')).toBe('opencode run "$TANDEM_TASK"');
    expect(programOf('/usr/local/bin/claude -p {task}')).toBe('claude');
  });
});

describe('TerminalText', () => {
  it('drops escape sequences, also one cut between chunks, and turns \\r\\n and \\r into \\n', () => {
    const t = new TerminalText();
    expect(t.push('\u001b[32mgreen\u001b[0')).toBe('green');
    expect(t.push('m and plain\r')).toBe(' and plain');
    expect(t.push('\nnext\r\n')).toBe('\nnext\n');
    expect(t.push('\u001b]0;title\u0007done')).toBe('done');
    expect(t.end()).toBe('');
  });
});
