import type { AdapterFactory } from './adapter-factory.js';
import { createAnthropicClient } from './anthropic-messages.js';
import { createOpenAIChatClient } from './openai-chat.js';

/** Builds the official-SDK adapter for a protocol: each model through its own wire format. */
export const sdkAdapterFactory: AdapterFactory = (protocol, options) => {
  if (protocol === 'anthropic-messages') {
    const { supportsTemperature: _t, maxTokensField: _m, promptCacheKey: _k, ...rest } = options;
    return createAnthropicClient(rest);
  }
  return createOpenAIChatClient(options);
};
