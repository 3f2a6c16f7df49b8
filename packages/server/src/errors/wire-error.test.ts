import { describe, expect, it } from 'vitest';
import { CommandError } from '../handlers/command-error.js';
import { ConflictError, ForbiddenError, InvalidInputError, NotFoundError } from './domain-errors.js';
import { wireError } from './wire-error.js';

describe('wireError', () => {
  it('maps each domain refusal to its protocol code and keeps the message', () => {
    expect(wireError(new NotFoundError('no session x'))).toEqual({ code: 'not_found', message: 'no session x' });
    expect(wireError(new ConflictError('a turn runs'))).toEqual({ code: 'conflict', message: 'a turn runs' });
    expect(wireError(new InvalidInputError('bad cwd'))).toEqual({ code: 'bad_request', message: 'bad cwd' });
    expect(wireError(new ForbiddenError('outside'))).toEqual({ code: 'forbidden', message: 'outside' });
  });

  it("keeps a handler's own wire error and leaves anything else to the dispatcher's internal error", () => {
    expect(wireError(new CommandError('rate_limited', 'slow down'))).toEqual({ code: 'rate_limited', message: 'slow down' });
    expect(wireError(new Error('boom'))).toBeUndefined();
    expect(wireError('a string')).toBeUndefined();
  });
});
