import type { PermissionOption } from '@agentclientprotocol/sdk';
import type { Decision } from '@tandem/shared';

/**
 * The options of every `session/request_permission`: ACP's four kinds, each mapped to a Tandem
 * decision. "Always" allows for the rest of the session; "always reject" is saved (a stored deny).
 */
export const PERMISSION_OPTIONS: PermissionOption[] = [
  { optionId: 'allow_once', name: 'Allow once', kind: 'allow_once' },
  { optionId: 'allow_always', name: 'Allow for this session', kind: 'allow_always' },
  { optionId: 'reject_once', name: 'Reject', kind: 'reject_once' },
  { optionId: 'reject_always', name: 'Always reject (saved)', kind: 'reject_always' },
];

const DECISIONS: Record<string, Decision> = {
  allow_once: 'allow_once',
  allow_always: 'allow_session',
  reject_once: 'deny_once',
  reject_always: 'deny_forever',
};

/** The Tandem decision for the option an editor's user picked (undefined for an unknown option id). */
export function decisionOf(optionId: string): Decision | undefined {
  return DECISIONS[optionId];
}
