import { timingSafeEqual } from 'node:crypto';
import type { Socket } from 'socket.io';
import {
  CONNECT_ERROR_PROTOCOL,
  CONNECT_ERROR_UNAUTHORIZED,
  HandshakeAuthSchema,
  PROTOCOL_VERSION,
} from '@tandem/shared';

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
    const parsed = HandshakeAuthSchema.safeParse(socket.handshake.auth ?? {});
    const kind = parsed.success ? tokenKindOf(parsed.data.token, tokens) : undefined;
    if (!parsed.success || !kind) return next(new Error(CONNECT_ERROR_UNAUTHORIZED));
    const version = parsed.data.protocolVersion;
    if (version !== undefined && version !== PROTOCOL_VERSION) {
      return next(
        new Error(
          `${CONNECT_ERROR_PROTOCOL}: this server speaks protocol ${PROTOCOL_VERSION}, the client ${version}; use matching versions of tandem`,
        ),
      );
    }
    const identity: ClientIdentity = { tokenKind: kind, name: parsed.data.name ?? `client-${socket.id.slice(0, 6)}` };
    socket.data = identity;
    next();
  };
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
