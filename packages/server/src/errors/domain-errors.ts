/**
 * What the server's parts (sessions, jobs, routines) refuse with, in their own terms. They know
 * nothing of the wire: the command dispatcher alone turns these into protocol error codes
 * (`wire-error.ts`). Each message says what happened and what to do.
 */
export class DomainError extends Error {}

/** The thing asked for does not exist (a session, a command, a request id). */
export class NotFoundError extends DomainError {
  override readonly name = 'NotFoundError';
}

/** Not now: the state forbids it (a turn runs, maintenance runs, the session is closing). */
export class ConflictError extends DomainError {
  override readonly name = 'ConflictError';
}

/** The input itself is wrong (a directory that is not one, an unknown model). */
export class InvalidInputError extends DomainError {
  override readonly name = 'InvalidInputError';
}

/** Refused on principle (a path outside what may be granted). */
export class ForbiddenError extends DomainError {
  override readonly name = 'ForbiddenError';
}
