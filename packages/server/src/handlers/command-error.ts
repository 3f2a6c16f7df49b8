import type { ErrorCode } from '@tandem/shared';

/** A refusal a handler answers with: becomes `{ ok: false, error: { code, message } }`. */
export class CommandError extends Error {
  override readonly name = 'CommandError';
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
  }
}
