import { createHash, randomBytes } from 'node:crypto';
import { SHARE_ROLE_RIGHTS, ShareRoleSchema, type ShareInfo, type ShareRole } from '@tandem/shared';
import { z } from 'zod';

/** A share as it is stored: the token's hash, never the token. */
export const ShareRecordSchema = z.object({
  id: z.string().min(1),
  sessionId: z.string().min(1),
  name: z.string().min(1),
  role: ShareRoleSchema,
  /** SHA-256 of the token, hex. The token itself is shown once, at creation, and kept nowhere. */
  tokenHash: z.string().regex(/^[0-9a-f]{64}$/),
  createdAt: z.string(),
  createdBy: z.string().optional(),
  expiresAt: z.string(),
  revokedAt: z.string().optional(),
  revokedBy: z.string().optional(),
});
export type ShareRecord = z.infer<typeof ShareRecordSchema>;

export interface NewShare {
  sessionId: string;
  name: string;
  role: ShareRole;
  expiresInSec: number;
  createdBy?: string;
}

/** Share tokens start with this, so the handshake looks a token up only when it can be one. */
export const SHARE_TOKEN_PREFIX = 'tsh_';

/** A new share's token (256 random bits) and id. */
export function newShareSecrets(): { id: string; token: string } {
  return { id: `sh_${randomBytes(6).toString('hex')}`, token: `${SHARE_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}` };
}

export function shareTokenHash(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

export function looksLikeShareToken(token: string): boolean {
  return token.startsWith(SHARE_TOKEN_PREFIX) && token.length > SHARE_TOKEN_PREFIX.length + 20;
}

export function newShareRecord(input: NewShare, nowMs: number): { record: ShareRecord; token: string } {
  const { id, token } = newShareSecrets();
  const record: ShareRecord = {
    id,
    sessionId: input.sessionId,
    name: input.name,
    role: input.role,
    tokenHash: shareTokenHash(token),
    createdAt: new Date(nowMs).toISOString(),
    ...(input.createdBy ? { createdBy: input.createdBy } : {}),
    expiresAt: new Date(nowMs + input.expiresInSec * 1000).toISOString(),
  };
  return { record, token };
}

export type ShareState = 'active' | 'expired' | 'revoked';

export function shareState(record: ShareRecord, nowMs: number): ShareState {
  if (record.revokedAt) return 'revoked';
  return Date.parse(record.expiresAt) <= nowMs ? 'expired' : 'active';
}

/** When the share stopped working (revoked or expired), or undefined while active. */
export function shareEndedAt(record: ShareRecord, nowMs: number): number | undefined {
  if (record.revokedAt) return Date.parse(record.revokedAt);
  const expires = Date.parse(record.expiresAt);
  return expires <= nowMs ? expires : undefined;
}

/** Ended shares stay listed this long, then they are forgotten. */
export const ENDED_SHARES_KEPT_MS = 7 * 24 * 60 * 60 * 1000;

/** Active, or ended within the last 7 days. */
export function worthKeeping(record: ShareRecord, nowMs: number): boolean {
  const ended = shareEndedAt(record, nowMs);
  return ended === undefined || nowMs - ended < ENDED_SHARES_KEPT_MS;
}

/** The wire's view of a record. */
export function shareInfo(record: ShareRecord, connected: number): ShareInfo {
  const { tokenHash: _hidden, ...rest } = record;
  return { ...rest, rights: [...SHARE_ROLE_RIGHTS[record.role]], connected };
}
