import OpenAI from 'openai';
import Anthropic from '@anthropic-ai/sdk';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadAnthropicSdk } from './anthropic-sdk.js';
import { loadOpenAISdk } from './openai-sdk.js';
import { classifyProviderError, retryAfterMs } from './classify-error.js';
import type { ProviderError } from './provider-error.js';

const ctx = { provider: 'openai', model: 'gpt-4.1' };

// The product loads each SDK before its first request, so before any of its errors exist; this
// file makes them directly, so it loads them the same way first.
beforeAll(async () => {
  expect(await loadAnthropicSdk()).toBe(Anthropic);
  expect(await loadOpenAISdk()).toBe(OpenAI);
});
const headers = (h: Record<string, string> = {}) => new Headers(h);

function openaiError(status: number, body: unknown, h: Record<string, string> = {}) {
  return OpenAI.APIError.generate(status, body as object, 'boom', headers(h));
}

function anthropicError(status: number, body: unknown) {
  return Anthropic.APIError.generate(status, body as object, 'boom', headers());
}

describe('classifyProviderError', () => {
  it('classifies by status and machine-readable error type, never by message text', () => {
    const cases: [unknown, ProviderError['kind']][] = [
      [openaiError(429, { error: { type: 'requests', code: 'rate_limit_exceeded' } }), 'rate_limit'],
      [openaiError(429, { error: { type: 'insufficient_quota', code: 'insufficient_quota' } }), 'billing'],
      [openaiError(401, { error: { code: 'invalid_api_key' } }), 'auth'],
      [openaiError(400, { error: { code: 'context_length_exceeded' } }), 'context_overflow'],
      // OpenAI's real overflow body: a generic type beside the specific code.
      [openaiError(400, { error: { type: 'invalid_request_error', code: 'context_length_exceeded', param: 'messages' } }), 'context_overflow'],
      [openaiError(400, { error: { message: 'rate limit exceeded, context too long, unauthorized' } }), 'bad_request'],
      [openaiError(400, { error: { code: 400, status: 'INVALID_ARGUMENT', details: [{ reason: 'API_KEY_INVALID' }] } }), 'auth'],
      [openaiError(503, {}), 'server'],
      [anthropicError(529, { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }), 'server'],
      [anthropicError(402, { type: 'error', error: { type: 'billing_error' } }), 'billing'],
      [anthropicError(403, { type: 'error', error: { type: 'permission_error' } }), 'auth'],
      [new OpenAI.APIConnectionError({ message: 'socket hang up' }), 'network'],
      [new Anthropic.APIUserAbortError(), 'aborted'],
      [new TypeError('terminated'), 'stream_cut'],
    ];
    for (const [err, kind] of cases) expect(classifyProviderError(err, ctx).kind).toBe(kind);
  });

  it('reads as one sentence with provider, model, status and what to do', () => {
    const err = classifyProviderError(openaiError(500, { error: { message: '{"raw":"json"}' } }), ctx);
    expect(err.message).toBe('openai model gpt-4.1 failed (HTTP 500): the provider is having trouble; try again shortly or pick another model.');
    expect(err.details).toMatchObject({ provider: 'openai', model: 'gpt-4.1', status: 500, afterContent: false });
  });

  it('carries Retry-After (seconds, HTTP date or retry-after-ms)', () => {
    expect(classifyProviderError(openaiError(429, {}, { 'retry-after': '7' }), ctx).details.retryAfterMs).toBe(7000);
    expect(retryAfterMs(headers({ 'retry-after-ms': '250', 'retry-after': '9' }))).toBe(250);
    expect(retryAfterMs(headers({ 'retry-after': new Date(61_000).toUTCString() }), 1_000)).toBe(60_000);
    expect(retryAfterMs(headers({ 'retry-after': 'soon' }))).toBeUndefined();
  });
});
