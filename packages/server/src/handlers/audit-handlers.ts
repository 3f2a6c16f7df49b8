import type { AuditLog } from '../audit/audit-log.js';
import type { HandlerMap } from './dispatch.js';

/** `audit:query` (control token): records from the audit log's in-memory ring, oldest first. */
export function auditHandlers(audit: AuditLog): HandlerMap {
  return {
    'audit:query': ({ sessionId, limit }) => ({
      records: audit.query({ ...(sessionId !== undefined ? { sessionId } : {}), ...(limit !== undefined ? { limit } : {}) }),
    }),
  };
}
