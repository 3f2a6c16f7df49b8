import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createAnthropicClient } from './anthropic-messages.js';
import { createOpenAIChatClient } from './openai-chat.js';
import { sampleRequest, streamFailure } from './testing/adapter-stream.test-helper.js';
import { fakeModelServerPerTest } from './testing/fake-server.test-helper.js';

const fake = fakeModelServerPerTest();
let redirector: Server | undefined;

afterEach(async () => {
  await new Promise((resolve) => redirector?.close(resolve) ?? resolve(undefined));
  redirector = undefined;
});

/** A base URL whose every request is answered `307` to the same path on the fake model server (which would answer it). */
async function redirectingBaseURL(): Promise<string> {
  const target = new URL(fake.server.url);
  redirector = createServer((req, res) => {
    res.writeHead(307, { location: `${target.origin}${req.url ?? '/'}` }).end();
  });
  await new Promise<void>((resolve) => redirector!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(redirector.address() as AddressInfo).port}`;
}

describe('model requests do not follow redirects (both SDKs)', () => {
  it('OpenAI: a redirecting base URL is a clear error, and the request never reaches the target', async () => {
    fake.server.enqueue({ text: 'should not be sent' });
    const client = createOpenAIChatClient({ id: 'openai/gpt-test', model: 'gpt-test', baseURL: `${await redirectingBaseURL()}/v1`, apiKey: 'k' });
    const { error, events } = await streamFailure(client.stream(sampleRequest(), new AbortController().signal));
    expect(events).toEqual([]);
    expect(error.kind).toBe('network');
    expect(error.message).toBe(
      'openai model gpt-test failed: the server at the base URL answered with a redirect, which Tandem does not follow for model requests; set the base URL to the address it redirects to.',
    );
    expect(fake.server.requests).toHaveLength(0);
  });

  it('Anthropic: the same', async () => {
    fake.server.enqueue({ text: 'should not be sent' });
    const client = createAnthropicClient({ id: 'anthropic/claude-test', model: 'claude-test', baseURL: await redirectingBaseURL(), apiKey: 'k' });
    const { error } = await streamFailure(client.stream(sampleRequest(), new AbortController().signal));
    expect(error.kind).toBe('network');
    expect(error.message).toMatch(/^anthropic model claude-test failed: the server at the base URL answered with a redirect/);
    expect(fake.server.requests).toHaveLength(0);
  });

  it('any other connection failure keeps the general advice', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const client = createOpenAIChatClient({ id: 'openai/gpt-test', model: 'gpt-test', baseURL: `http://127.0.0.1:${port}/v1`, apiKey: 'k' });
    const { error } = await streamFailure(client.stream(sampleRequest(), new AbortController().signal));
    expect(error.kind).toBe('network');
    expect(error.message).toBe('openai model gpt-test failed: check the network and the base URL.');
  });
});
