import type { ErrorCode } from '@tandem/shared';
import { CommandError } from '../handlers/command-error.js';
import { ConflictError, ForbiddenError, InvalidInputError, NotFoundError } from './domain-errors.js';

const CODES: ReadonlyArray<[new (...args: never[]) => Error, ErrorCode]> = [
  [NotFoundError, 'not_found'],
  [ConflictError, 'conflict'],
  [InvalidInputError, 'bad_request'],
  [ForbiddenError, 'forbidden'],
];

/** The protocol error for a refusal, or undefined for an unexpected failure (an `internal` error). */
export function wireError(err: unknown): { code: ErrorCode; message: string } | undefined {
  if (err instanceof CommandError) return { code: err.code, message: err.message };
  for (const [type, code] of CODES) if (err instanceof type) return { code, message: err.message };
  return undefined;
}
