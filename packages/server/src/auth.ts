import { timingSafeEqual } from 'node:crypto';
import type { Socket } from 'socket.io';
import { CONNECT_ERROR_PROTOCOL, CONNECT_ERROR_UNAUTHORIZED, HandshakeAuthSchema, PROTOCOL_VERSION, type HandshakeAuth } from '@tandem/shared';

export interface Tokens {
  /** May create sessions and drive them. */
  control: string;
  /** May only watch. */
  view: string;
}

export type TokenKind = 'control' | 'view';

/** What the server knows about a connected socket, kept in `socket.data`. */
export interface ClientIdentity {
  tokenKind: TokenKind;
  name: string;
}

/**
 * The handshake check, as socket.io middleware. A wrong or missing token fails with the
 * message `unauthorized`; a client speaking another protocol version with `protocol_mismatch: …`.
 */
export function authenticate(tokens: Tokens) {
  return (socket: Socket, next: (err?: Error) => void): void => {
    const auth = readAuth(socket.handshake.auth);
    const kind = auth ? tokenKindOf(auth.token, tokens) : undefined;
    if (!auth || !kind) return next(new Error(CONNECT_ERROR_UNAUTHORIZED));
    const version = auth.protocolVersion;
    if (version !== undefined && version !== PROTOCOL_VERSION) {
      return next(
        new Error(`${CONNECT_ERROR_PROTOCOL}: this server speaks protocol ${PROTOCOL_VERSION}, the client ${version}; use matching versions of tandem`),
      );
    }
    const identity: ClientIdentity = { tokenKind: kind, name: auth.name ?? `client-${socket.id.slice(0, 6)}` };
    socket.data = identity;
    next();
  };
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

function tokenKindOf(token: string, tokens: Tokens): TokenKind | undefined {
  if (sameSecret(token, tokens.control)) return 'control';
  if (sameSecret(token, tokens.view)) return 'view';
  return undefined;
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
