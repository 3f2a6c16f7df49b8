import type { PermissionRule, RuleDraft } from '@tandem/coding-tools';

/**
 * AllowSession decisions (requirements P2): kept in memory for the rest of one session, never written
 * to disk, gone when the server restarts. Each records who decided.
 */
export class SessionRuleSet {
  private rules: PermissionRule[] = [];
  private counter = 0;

  list(): readonly PermissionRule[] {
    return this.rules;
  }

  add(draft: RuleDraft): PermissionRule {
    const same = (r: PermissionRule) => r.tool === draft.tool && r.match === draft.match && r.pattern === draft.pattern && r.effect === draft.effect;
    const rule: PermissionRule = { ...draft, id: `session-${++this.counter}` };
    this.rules = [...this.rules.filter((r) => !same(r)), rule];
    return rule;
  }

  clear(): void {
    this.rules = [];
  }
}
