import { timingSafeEqual } from 'node:crypto';
import type { Socket } from 'socket.io';
import {
  CONNECT_ERROR_PROTOCOL,
  CONNECT_ERROR_RATE_LIMITED,
  CONNECT_ERROR_UNAUTHORIZED,
  HandshakeAuthSchema,
  PROTOCOL_VERSION,
  type HandshakeAuth,
  type ShareRight,
  type ShareRole,
} from '@tandem/shared';
import type { HandshakeLockout } from './auth/handshake-lockout.js';

export interface Tokens {
  /** May create sessions and drive them. */
  control: string;
  /** May only watch. */
  view: string;
}

/** `share`: one session, with the share's rights (see `ShareGrant`). */
export type TokenKind = 'control' | 'view' | 'share';

/** What a share lets its holder do, fixed at the handshake. */
export interface ShareGrant {
  id: string;
  sessionId: string;
  role: ShareRole;
  rights: ShareRight[];
  expiresAt: string;
}

/** What the server knows about a connected socket, kept in `socket.data`. */
export interface ClientIdentity {
  tokenKind: TokenKind;
  /** The handshake's name; for a share, the share's name whatever the handshake said. */
  name: string;
  share?: ShareGrant;
}

/** The person a share token stands for, or undefined when the token is no active share. */
export type ShareVerifier = (token: string) => Promise<{ name: string; grant: ShareGrant } | undefined>;

export interface AuthenticateDeps {
  tokens: Tokens;
  /** Share tokens; without it only the two server tokens are accepted. */
  verifyShare?: ShareVerifier;
  /** Counts refused handshakes per address and refuses locked addresses (`rate_limited`). */
  lockout?: HandshakeLockout;
}

/**
 * The handshake check, as socket.io middleware. A wrong or missing token (or a share that was
 * revoked or expired) fails with the message `unauthorized`; an address locked out after too many
 * refusals with `rate_limited`; a client speaking another protocol version with `protocol_mismatch: …`.
 */
export function authenticate(deps: AuthenticateDeps) {
  return (socket: Socket, next: (err?: Error) => void): void => {
    identify(socket, deps).then(
      (identity) => {
        socket.data = identity;
        next();
      },
      (err: Error) => next(err),
    );
  };
}

async function identify(socket: Socket, deps: AuthenticateDeps): Promise<ClientIdentity> {
  const address = socket.handshake.address;
  if (deps.lockout?.isLocked(address)) throw new Error(CONNECT_ERROR_RATE_LIMITED);
  const auth = readAuth(socket.handshake.auth);
  const identity = auth ? await identityOf(auth, socket.id, deps) : undefined;
  if (!auth || !identity) {
    deps.lockout?.refused(address);
    throw new Error(CONNECT_ERROR_UNAUTHORIZED);
  }
  const version = auth.protocolVersion;
  if (version !== undefined && version !== PROTOCOL_VERSION) {
    throw new Error(`${CONNECT_ERROR_PROTOCOL}: this server speaks protocol ${PROTOCOL_VERSION}, the client ${version}; use matching versions of tandem`);
  }
  return identity;
}

async function identityOf(auth: HandshakeAuth, socketId: string, deps: AuthenticateDeps): Promise<ClientIdentity | undefined> {
  const name = auth.name ?? `client-${socketId.slice(0, 6)}`;
  if (sameSecret(auth.token, deps.tokens.control)) return { tokenKind: 'control', name };
  if (sameSecret(auth.token, deps.tokens.view)) return { tokenKind: 'view', name };
  const share = await deps.verifyShare?.(auth.token);
  // A share's holder is the share's name: the handshake cannot choose another.
  return share ? { tokenKind: 'share', name: share.name, share: share.grant } : undefined;
}

/** Whether this client may attach as driver and send: the control token, or a share with `send`. */
export function mayDrive(client: ClientIdentity): boolean {
  return client.tokenKind === 'control' || (client.share?.rights.includes('send') ?? false);
}

/**
 * The handshake's auth object. Only the token decides acceptance: a name that is too long or
 * not a string is trimmed or replaced, never a reason to refuse a valid token.
 */
function readAuth(raw: unknown): HandshakeAuth | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const value = raw as Record<string, unknown>;
  const token = HandshakeAuthSchema.shape.token.safeParse(value.token);
  if (!token.success) return undefined;
  const auth: HandshakeAuth = { token: token.data };
  if (typeof value.name === 'string' && value.name.trim() !== '') auth.name = value.name.trim().slice(0, 64);
  if (value.protocolVersion !== undefined) auth.protocolVersion = typeof value.protocolVersion === 'number' ? value.protocolVersion : Number.NaN;
  return auth;
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
