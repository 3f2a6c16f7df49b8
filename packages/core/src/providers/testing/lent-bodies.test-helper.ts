import { afterEach, vi } from 'vitest';
import { leaseOf } from '../body-lease.js';
import { RequestBytes } from '../request-bytes.js';
import { sampleRequest } from './adapter-stream.test-helper.js';
import type { ModelRequest } from '../types.js';

/** A request whose body is above the size step, so it is lent (request-bytes.ts). */
export const largeRequest = (): ModelRequest => sampleRequest({ messages: [{ role: 'user', text: `long ${'x'.repeat(40_000)}` }] });

/**
 * Every body an adapter builds from now on; `freed()` says for each whether its memory is
 * free again (no request and no transport holds it).
 */
export function watchBodies(): { freed: () => Array<boolean | undefined> } {
  const bodies: Uint8Array[] = [];
  const build = RequestBytes.prototype.body;
  const spy = vi.spyOn(RequestBytes.prototype, 'body').mockImplementation(function (this: RequestBytes, ...args) {
    const body = build.apply(this, args);
    bodies.push(body);
    return body;
  });
  afterEach(() => spy.mockRestore());
  return { freed: () => bodies.map((body) => leaseOf(body)?.free) };
}
