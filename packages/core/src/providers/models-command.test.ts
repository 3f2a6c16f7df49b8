import { describe, expect, it } from 'vitest';
import { runModelsCommand } from './models-command.js';

function capture(opts: Parameters<typeof runModelsCommand>[0] = {}): { code: number; out: string } {
  let out = '';
  const code = runModelsCommand({ ...opts, write: (t) => (out += t) });
  return { code, out };
}

describe('tandem models', () => {
  it('prints a plain table of the visible models', () => {
    const { code, out } = capture();
    expect(code).toBe(0);
    const lines = out.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^MODEL\s+TIER\s+CONTEXT\s+OUTPUT\s+TOOLS\s+DESCRIPTION$/);
    expect(out).toMatch(/^openai\/gpt-4\.1\s+frontier\s+1M\s+33k\s+yes\s+/m);
    expect(out).toMatch(/^anthropic\/claude-sonnet-4-5\s+frontier\s+200k\s+64k\s+yes/m);
    expect(out).not.toContain('gpt-4.1-nano');
    expect(out).not.toMatch(/\x1b\[/);
  });

  it('shows whether each provider has a key, and filters by provider', () => {
    const { out } = capture({ env: { ANTHROPIC_API_KEY: 'sk-ant-secret' }, provider: 'anthropic' });
    expect(out).toMatch(/KEY/);
    expect(out).toMatch(/claude-sonnet-4-5.*\bok\b/);
    expect(out).not.toContain('openai/');
    expect(out).not.toContain('sk-ant-secret');
    expect(capture({ env: {}, provider: 'ollama' }).out).toMatch(/ollama\/llama3\.1.*\bok\b/);
    expect(capture({ env: {}, provider: 'openai' }).out).toMatch(/openai\/gpt-4\.1\s.*\bmissing\b/);
    expect(capture({ provider: 'nobody' }).code).toBe(1);
  });
});
