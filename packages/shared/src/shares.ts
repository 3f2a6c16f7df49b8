import { z } from 'zod';
import { SHARE_ROLES } from './share-terms.js';

export { DEFAULT_SHARE_SECONDS, MAX_SHARE_SECONDS, SHARE_ROLES } from './share-terms.js';

/**
 * A share lets one person into one session with named rights, without the server's tokens.
 * `view`: list, attach, history and events of that session; `send`: `session:send`,
 * `session:cancel`, `command:input`, `job:stop`; `approve`: `permission:respond`.
 */
export const ShareRightSchema = z.enum(['view', 'send', 'approve']);
export type ShareRight = z.infer<typeof ShareRightSchema>;

export const ShareRoleSchema = z.enum(SHARE_ROLES);
export type ShareRole = z.infer<typeof ShareRoleSchema>;

/** The rights each role carries (the contract's table). */
export const SHARE_ROLE_RIGHTS: Readonly<Record<ShareRole, readonly ShareRight[]>> = {
  viewer: ['view'],
  approver: ['view', 'approve'],
  driver: ['view', 'send', 'approve'],
};

/** What the holder of a share may do, in one sentence a person reads (TUI, web viewer, refusals). */
export const SHARE_ROLE_SUMMARY: Readonly<Record<ShareRole, string>> = {
  viewer: 'you can watch this session',
  approver: 'you can watch this session and answer its permission requests',
  driver: 'you can watch this session, send messages, stop turns and answer permission requests',
};

/** A share's name: the person it is for, shown in presence, messages, decisions and the audit. */
export const ShareNameSchema = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[^\p{Cc}]+$/u, 'no control characters');

export const ShareInfoSchema = z.object({
  id: z.string(),
  sessionId: z.string(),
  name: z.string(),
  role: ShareRoleSchema,
  rights: z.array(ShareRightSchema),
  createdAt: z.string(),
  /** Who created it (the control-token client's name). */
  createdBy: z.string().optional(),
  expiresAt: z.string().optional(),
  revokedAt: z.string().optional(),
  revokedBy: z.string().optional(),
  /** Sockets using it now (every node of a cluster). */
  connected: z.number().int(),
});
export type ShareInfo = z.infer<typeof ShareInfoSchema>;

/**
 * Server → client, just before a share's sockets are closed: it was revoked or it expired. A
 * client shows the reason and stops reconnecting (the token is refused from now on).
 */
export const SHARE_ENDED_EVENT = 'share:ended';
export const ShareEndedSchema = z.object({ shareId: z.string(), reason: z.enum(['revoked', 'expired']), by: z.string().optional() });
export type ShareEnded = z.infer<typeof ShareEndedSchema>;

/**
 * Who this connection is (`client:whoami`): the kind of token it authenticated with, its name,
 * and for a share its session, role and rights.
 */
export const WhoAmISchema = z.object({
  kind: z.enum(['control', 'view', 'share']),
  name: z.string(),
  share: z
    .object({
      id: z.string(),
      sessionId: z.string(),
      role: ShareRoleSchema,
      rights: z.array(ShareRightSchema),
      expiresAt: z.string().optional(),
    })
    .optional(),
});
export type WhoAmI = z.infer<typeof WhoAmISchema>;

/** The `connect_error` message for an address locked out after too many refused handshakes. */
export const CONNECT_ERROR_RATE_LIMITED = 'rate_limited';

/**
 * The web link of a share: the page opens straight onto the session. The token is in the
 * fragment, which browsers never send in a request line or a Referer.
 */
export function shareWebLink(base: string, sessionId: string, token: string): string {
  const url = new URL(base);
  url.pathname = '/';
  url.search = `?session=${encodeURIComponent(sessionId)}`;
  url.hash = `token=${token}`;
  return url.href;
}

/** The command line that opens the shared session in a terminal. */
export function shareAttachLine(base: string, sessionId: string, token: string): string {
  return `tandem attach ${sessionId} --url ${new URL(base).origin} --token ${token}`;
}
