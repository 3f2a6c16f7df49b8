import type { Role, StoredPermission } from '@tandem/shared';
import { dateTime } from './time-text.js';
import type { PanelContent, PanelRow } from './types.js';

/** /permissions: the stored allow / deny forever rules of this workspace; r revokes one. */
export function permissionsContent(rules: readonly StoredPermission[] | undefined, role: Role): PanelContent {
  return {
    title: `stored permissions · ${rules?.length ?? 0} rule${rules?.length === 1 ? '' : 's'} for this workspace`,
    rows: (rules ?? []).map(ruleRow),
    empty: 'no stored decisions: answering a permission request with a (allow forever) or d (deny forever) adds one',
    selectable: true,
    actions: role === 'driver' ? [{ key: 'r', name: 'revoke_permission', label: 'r revoke' }] : [],
  };
}

/** `allow run_command  npm test * (prefix)  by ana  2026-12-02 14:03` */
export function ruleRow(rule: StoredPermission): PanelRow {
  const what = rule.pattern ? `${rule.pattern}${rule.match === 'prefix' || rule.match === 'exact' ? ` (${rule.match})` : ''}` : '(whole tool)';
  return {
    key: rule.id,
    text: `${rule.effect === 'allow' ? 'allow' : 'deny '} ${rule.tool.padEnd(12)} ${what}  by ${rule.by}  ${dateTime(rule.createdAt)}`,
    detail: `rule ${rule.id} · ${rule.workspace}`,
    tone: rule.effect === 'allow' ? 'good' : 'bad',
  };
}
