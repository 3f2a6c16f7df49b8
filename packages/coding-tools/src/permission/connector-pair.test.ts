import { describe, expect, it } from 'vitest';
import { evaluatePermission } from './evaluate.js';
import { ruleFromDecision } from './rule-from-decision.js';
import { CONNECTOR_CALL } from './rule.js';

/** The bridge's connector_call is decided per (agent, server) pair, never per tool name. */
describe('connector_call permissions', () => {
  const call = (agent: string, server: string, tool = 'create_issue') => ({
    tool: CONNECTOR_CALL,
    args: { agent, server, tool, arguments: { title: 'x' } },
    danger: 'medium' as const,
    // What the bridge's connector_call declares: its subject is the (agent, server) pair.
    subject: { agent, server },
  });

  it('offers the pair as the one scope; an "always" answer covers that pair only', () => {
    const first = evaluatePermission(call('claude', 'github'), { sessionRules: [], storedRules: [] });
    expect(first).toMatchObject({ verdict: 'ask', scopes: ['agent claude → MCP server github'] });
    const made = ruleFromDecision(call('claude', 'github'), 'allow_forever', undefined, 'alice');
    expect(made).toMatchObject({ ok: true, lifetime: 'forever', rule: { tool: CONNECTOR_CALL, match: 'exact', pattern: 'claude/github' } });
    const rule = made.ok && made.rule ? made.rule : undefined;
    const rules = { sessionRules: [], storedRules: rule ? [rule] : [] };
    expect(evaluatePermission(call('claude', 'github', 'delete_repo'), rules).verdict).toBe('allow');
    expect(evaluatePermission(call('codex', 'github'), rules).verdict).toBe('ask');
    expect(evaluatePermission(call('claude', 'slack'), rules).verdict).toBe('ask');
  });

  it('a whole-tool rule never covers a pair', () => {
    const rules = { sessionRules: [{ tool: CONNECTOR_CALL, match: 'tool' as const, effect: 'allow' as const, by: 'x' }], storedRules: [] };
    expect(evaluatePermission(call('claude', 'github'), rules).verdict).toBe('ask');
  });
});
