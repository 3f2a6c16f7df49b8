import type { StoredPermission } from '@tandem/shared';
import { PermissionStore } from './permission-store.js';

export interface PermissionsCommandOptions {
  dataDir: string;
  action: 'list' | 'revoke';
  /** For `revoke`: the rule's id, as `list` shows it. */
  id?: string;
  /** For `list`: only this workspace's rules (any path to it). */
  workspace?: string;
  json?: boolean;
  out: { write(text: string): unknown };
}

/**
 * `tandem permissions list [--workspace DIR] [--json]` and `tandem permissions revoke ID`:
 * reads and edits `<dataDir>/permissions.json` directly (a running server picks the change up
 * before its next decision). Resolves with the exit code: 0 done, 1 no such rule, 2 bad usage.
 */
export async function runPermissionsCommand(options: PermissionsCommandOptions): Promise<number> {
  const { out } = options;
  const store = await PermissionStore.open({ dataDir: options.dataDir });
  for (const warning of store.warnings) out.write(`warning: ${warning}\n`);

  if (options.action === 'revoke') {
    if (!options.id) {
      out.write('usage: tandem permissions revoke ID (ids are in the first column of `tandem permissions list`)\n');
      return 2;
    }
    const result = await store.revoke(options.id);
    if (!result.ok) {
      out.write(`${result.message}\n`);
      return 1;
    }
    out.write(`revoked ${result.removed.id}: ${describe(result.removed)} in ${result.removed.workspace}\n`);
    return 0;
  }

  if (options.action !== 'list') {
    out.write(`unknown action ${JSON.stringify(options.action)}; use list or revoke\n`);
    return 2;
  }
  const rules = await store.list(options.workspace);
  if (options.json) {
    for (const rule of rules) out.write(`${JSON.stringify(rule)}\n`);
    return 0;
  }
  if (rules.length === 0) {
    out.write(`no stored permissions${options.workspace ? ` for ${options.workspace}` : ''} (${store.file})\n`);
    return 0;
  }
  const byWorkspace = new Map<string, StoredPermission[]>();
  for (const rule of rules) byWorkspace.set(rule.workspace, [...(byWorkspace.get(rule.workspace) ?? []), rule]);
  for (const [workspace, list] of byWorkspace) {
    out.write(`${workspace}\n`);
    for (const rule of list) out.write(`  ${rule.id}  ${rule.effect.padEnd(5)}  ${describe(rule)}  (by ${rule.by}, ${rule.createdAt})\n`);
  }
  return 0;
}

function describe(rule: StoredPermission): string {
  switch (rule.match) {
    case 'tool':
      return `${rule.tool}: any call`;
    case 'exact':
      return `${rule.tool}: exactly ${JSON.stringify(rule.pattern ?? '')}`;
    case 'prefix':
      return rule.pattern?.endsWith('/')
        ? `${rule.tool}: anything under ${rule.pattern}`
        : `${rule.tool}: commands starting ${JSON.stringify(rule.pattern ?? '')}`;
    case 'path':
      return `${rule.tool}: ${rule.pattern ?? ''}`;
  }
}
