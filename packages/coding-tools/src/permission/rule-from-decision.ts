import type { Decision } from '@tandem/shared';
import { scopeOptions, subjectOf } from './call-subject.js';
import { decisionMeaning, type Lifetime, type PolicyCall, type PolicyOptions, type RuleDraft } from './rule.js';

export type RuleFromDecision =
  | { ok: true; lifetime: Lifetime; effect: 'allow' | 'deny'; rule: RuleDraft | null; scope?: string }
  | { ok: false; error: string };

/**
 * The rule a person's answer creates. `*_once` create none. A session or forever decision
 * covers exactly the scope the person chose from the offered ones (`scope` absent means the
 * narrowest, the first offered); a scope that was not offered is refused, never guessed or
 * widened. A tool offering no scope (an always-ask tool) gets no rule: the decision acts once.
 */
export function ruleFromDecision(
  call: PolicyCall,
  decision: Decision,
  scope: string | undefined,
  by: string,
  options: Pick<PolicyOptions, 'workspace'> = {},
): RuleFromDecision {
  const { effect, lifetime } = decisionMeaning(decision);
  const offered = scopeOptions(call, subjectOf(call, options), options);
  if (scope !== undefined && !offered.some((o) => o.label === scope)) {
    const list = offered.length ? offered.map((o) => JSON.stringify(o.label)).join(', ') : 'none';
    return { ok: false, error: `scope ${JSON.stringify(scope)} was not offered for this ${call.tool} call; choose one of: ${list}` };
  }
  if (lifetime === 'once') return { ok: true, lifetime, effect, rule: null };
  const chosen = scope === undefined ? offered[0] : offered.find((o) => o.label === scope);
  if (!chosen) return { ok: true, lifetime: 'once', effect, rule: null };
  const rule: RuleDraft = { tool: call.tool, match: chosen.match, effect, by };
  if (chosen.pattern !== undefined) rule.pattern = chosen.pattern;
  return { ok: true, lifetime, effect, rule, scope: chosen.label };
}
