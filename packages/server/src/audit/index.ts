export { AuditLog, AUDIT_FILE, parseAuditRecord, type AuditEntry, type AuditLogOptions } from './audit-log.js';
export { SessionAuditRecorder } from './session-audit-recorder.js';
export { createAuditMasker, type AuditMasker, ARG_STRING_MAX, SUMMARY_MAX } from './audit-masker.js';
export { runAuditCommand, type AuditCommandOptions } from './audit-command.js';
export { readLastLines, type LastLines } from './read-last-lines.js';
