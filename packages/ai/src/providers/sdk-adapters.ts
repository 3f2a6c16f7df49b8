import type { AdapterFactory } from './adapter-factory.js';
import type { AdapterOptions } from './adapter-options.js';
import { createAnthropicClient } from './anthropic-messages.js';
import { createOpenAIChatClient } from './openai-chat.js';
import type { ModelClient, WireProtocol } from './types.js';

/**
 * The wire formats, keyed by API: each builds the official-SDK adapter for one model. A new wire
 * format is one adapter file beside these and one line here (its key joins `WireProtocol`).
 */
const WIRE_FORMATS: { readonly [P in WireProtocol]: (options: AdapterOptions) => ModelClient } = {
  'openai-chat': createOpenAIChatClient,
  'anthropic-messages': ({ supportsTemperature: _t, maxTokensField: _m, promptCacheKey: _k, ...rest }) => createAnthropicClient(rest),
};

/** Builds the official-SDK adapter for a protocol: each model through its own wire format. */
export const sdkAdapterFactory: AdapterFactory = (protocol, options) => WIRE_FORMATS[protocol](options);
