export { PermissionStore, PERMISSIONS_FILE, type PermissionStoreOptions, type RevokeResult } from './permission-store.js';
export {
  PermissionBroker,
  DEFAULT_PERMISSION_TIMEOUT_MS,
  type PermissionBrokerOptions,
  type PermissionQuestion,
  type PermissionAnswer,
  type PendingPermission,
  type RespondResult,
} from './permission-broker.js';
export { createPermissionGate, type PermissionGateOptions, type BlacklistCheck, type GateDecision } from './permission-gate.js';
export { SessionRuleSet } from './session-rules.js';
export { composeGates } from './compose-gates.js';
export { expireDanglingRequests } from './expire-dangling.js';
export { workspaceKey } from './workspace-key.js';
export { runPermissionsCommand, type PermissionsCommandOptions } from './permissions-command.js';
export { createSessionGuards, type SessionGuards, type SessionGuardsOptions } from './session-guards.js';
