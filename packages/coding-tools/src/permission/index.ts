export {
  type PermissionRule,
  type RuleDraft,
  type PolicyCall,
  type PolicyOptions,
  type PolicyResult,
  type PolicyVerdict,
  type Lifetime,
  CONNECTOR_CALL,
  decisionMeaning,
  describeRule,
} from './rule.js';
export { segmentLevel, commandLevel } from './command-level.js';
export { subjectOf, scopeOptions, WHOLE_TOOL_SCOPE, NETWORK_TOOL, type CallSubject, type ScopeOption } from './call-subject.js';
export { evaluatePermission } from './evaluate.js';
export { ruleFromDecision, type RuleFromDecision } from './rule-from-decision.js';
export { buildPermissionPreview, PREVIEW_MAX_CHARS } from './preview.js';
export { readOnlyCommand, readOnlySegment, DEFAULT_READ_ONLY_COMMANDS, type ReadOnlyMatch, type ReadOnlyOptions } from './read-only-commands.js';
export { readOnlyModeRefusal, autoEditAllows, fullAutoAllows, type ModeCall, type ModeContext } from './approval-mode.js';
