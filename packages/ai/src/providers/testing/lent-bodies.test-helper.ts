import { expect, onTestFinished, vi } from 'vitest';
import type { FakeModelServer } from '@tandem/testkit';
import { leaseOf } from '../body-lease.js';
import { RequestBytes } from '../request-bytes.js';
import { collectStream, sampleRequest, streamFailure } from './adapter-stream.test-helper.js';
import type { ModelClient, ModelRequest } from '../types.js';

/** A request whose body is above the size step, so it is lent (request-bytes.ts). */
const largeRequest = (): ModelRequest => sampleRequest({ messages: [{ role: 'user', text: `long ${'x'.repeat(40_000)}` }] });

/** Every body an adapter builds during the current test, as built. */
function watchBodies(): Uint8Array[] {
  const bodies: Uint8Array[] = [];
  const build = RequestBytes.prototype.body;
  const spy = vi.spyOn(RequestBytes.prototype, 'body').mockImplementation(function (this: RequestBytes, ...args) {
    const body = build.apply(this, args);
    bodies.push(body);
    return body;
  });
  onTestFinished(() => spy.mockRestore());
  return bodies;
}

/**
 * Sends three large requests through an adapter — answered, refused (400), and aborted while
 * the server hangs — and expects every body's memory free afterwards: no request and no
 * transport holds it any more (body-lease.ts).
 */
export async function expectBodiesGivenBack(server: FakeModelServer, client: () => ModelClient): Promise<void> {
  const bodies = watchBodies();
  server.enqueue({ text: 'ok' }, { status: 400 }, { hang: true });
  await collectStream(client().stream(largeRequest(), new AbortController().signal));
  expect((await streamFailure(client().stream(largeRequest(), new AbortController().signal))).error.kind).toBe('bad_request');
  const ac = new AbortController();
  const hanging = streamFailure(client().stream(largeRequest(), ac.signal));
  await vi.waitFor(() => expect(server.requests).toHaveLength(3));
  ac.abort();
  expect((await hanging).error.kind).toBe('aborted');
  expect(bodies.map((body) => leaseOf(body)?.free)).toEqual([true, true, true]);
}
