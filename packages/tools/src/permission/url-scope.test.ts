import { describe, expect, it } from 'vitest';
import { evaluatePermission } from '@tandem/coding-tools';
import { ruleFromDecision } from '@tandem/coding-tools';
import type { PermissionRule, PolicyCall } from '@tandem/coding-tools';
import { declared } from './declared-call.test-helper.js';

const fetchOf = (url: string): PolicyCall => declared({ tool: 'web_fetch', args: { url }, danger: 'medium' });
const evaluate = (call: PolicyCall, session: PermissionRule[] = []) => evaluatePermission(call, { sessionRules: session, storedRules: [], workspace: '/ws' });

function rule(call: PolicyCall, scope: string): PermissionRule {
  const made = ruleFromDecision(call, 'allow_session', scope, 'ana', { workspace: '/ws' });
  if (!made.ok || !made.rule) throw new Error(JSON.stringify(made));
  return made.rule;
}

describe('web_fetch asks per site', () => {
  it('offers the exact page, the whole site and the whole tool', () => {
    expect(evaluate(fetchOf('https://docs.example.com/guide/intro?x=1'))).toMatchObject({
      verdict: 'ask',
      scopes: ['https://docs.example.com/guide/intro?x=1', 'https://docs.example.com/*', '*'],
    });
  });

  it('a site answer covers every page of that site and nothing else', () => {
    const site = rule(fetchOf('https://docs.example.com/guide'), 'https://docs.example.com/*');
    expect(evaluate(fetchOf('https://docs.example.com/api/v2'), [site])).toMatchObject({ verdict: 'allow' });
    expect(evaluate(fetchOf('https://docs.example.com.evil.test/'), [site])).toMatchObject({ verdict: 'ask' });
    expect(evaluate(fetchOf('http://docs.example.com/guide'), [site])).toMatchObject({ verdict: 'ask' });
    expect(evaluate(fetchOf('https://docs.example.com:8443/guide'), [site])).toMatchObject({ verdict: 'ask' });
  });

  it('a page answer covers only that page', () => {
    const page = rule(fetchOf('https://example.com/a'), 'https://example.com/a');
    expect(evaluate(fetchOf('https://example.com/a'), [page])).toMatchObject({ verdict: 'allow' });
    expect(evaluate(fetchOf('https://example.com/b'), [page])).toMatchObject({ verdict: 'ask' });
  });
});
