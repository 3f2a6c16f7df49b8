import { describe, expect, it } from 'vitest';
import type { Danger } from '@tandem/shared';
import { ruleFromDecision } from '@tandem/coding-tools';
import { declared } from './declared-call.test-helper.js';

const call = declared({ tool: 'run_command', args: { command: 'npm run build' }, danger: 'dangerous' as Danger });

describe('ruleFromDecision', () => {
  it('makes no rule for the once-decisions', () => {
    expect(ruleFromDecision(call, 'allow_once', undefined, 'ana')).toEqual({ ok: true, lifetime: 'once', effect: 'allow', rule: null });
    expect(ruleFromDecision(call, 'deny_once', 'npm *', 'ana')).toEqual({ ok: true, lifetime: 'once', effect: 'deny', rule: null });
  });

  it('maps each lasting decision to its lifetime and effect, recording who decided', () => {
    expect(ruleFromDecision(call, 'allow_session', undefined, 'ana')).toMatchObject({
      lifetime: 'session',
      rule: { tool: 'run_command', match: 'exact', pattern: 'npm run build', effect: 'allow', by: 'ana' },
    });
    expect(ruleFromDecision(call, 'allow_forever', 'npm run *', 'bo')).toMatchObject({
      lifetime: 'forever',
      scope: 'npm run *',
      rule: { match: 'prefix', pattern: 'npm run', effect: 'allow', by: 'bo' },
    });
    expect(ruleFromDecision(call, 'deny_forever', 'npm *', 'cy')).toMatchObject({
      lifetime: 'forever',
      rule: { match: 'prefix', pattern: 'npm', effect: 'deny', by: 'cy' },
    });
  });

  it('refuses a scope that was not offered instead of guessing', () => {
    const made = ruleFromDecision(call, 'allow_forever', 'n *', 'ana');
    expect(made.ok).toBe(false);
    expect(!made.ok && made.error).toMatch(/not offered.*"npm run build", "npm run \*", "npm \*"/);
  });

  it('lets an always-ask tool decide only once, whatever was answered', () => {
    const provider = declared({ tool: 'configure_provider', args: { name: 'groq' }, danger: 'dangerous' as Danger });
    expect(ruleFromDecision(provider, 'allow_forever', undefined, 'ana')).toEqual({ ok: true, lifetime: 'once', effect: 'allow', rule: null });
  });
});
