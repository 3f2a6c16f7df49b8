import { z } from 'zod';

/** Every error an ack can carry. Names are part of the wire contract. */
export const ERROR_CODES = ['bad_request', 'unauthorized', 'forbidden', 'not_found', 'conflict', 'rate_limited', 'internal'] as const;

export const ErrorCodeSchema = z.enum(ERROR_CODES);
export type ErrorCode = z.infer<typeof ErrorCodeSchema>;

export interface WireError {
  code: ErrorCode;
  message: string;
}

export type Ack<T> = { ok: true; data: T } | { ok: false; error: WireError };

export function ackOk<T>(data: T): Ack<T> {
  return { ok: true, data };
}

export function ackError(code: ErrorCode, message: string): Ack<never> {
  return { ok: false, error: { code, message } };
}

/** Message of the socket.io `connect_error` for a refused handshake. */
export const CONNECT_ERROR_UNAUTHORIZED = 'unauthorized';
export const CONNECT_ERROR_PROTOCOL = 'protocol_mismatch';
