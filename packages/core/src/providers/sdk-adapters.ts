import type { AdapterFactory, AdapterOptions } from './adapter-factory.js';
import type { ModelClient, WireProtocol } from './types.js';

type CreateAdapter = (options: AdapterOptions) => ModelClient;

// The SDK adapters (openai-chat.ts, anthropic-messages.ts) are loaded on first use.
const ADAPTER_MODULES: Record<WireProtocol, { path: string; factory: string }> = {
  'openai-chat': { path: './openai-chat.js', factory: 'createOpenAIChatClient' },
  'anthropic-messages': { path: './anthropic-messages.js', factory: 'createAnthropicClient' },
};

async function load(protocol: WireProtocol): Promise<CreateAdapter> {
  const { path, factory } = ADAPTER_MODULES[protocol];
  const mod = (await import(path)) as Record<string, unknown>;
  const create = mod[factory];
  if (typeof create !== 'function') throw new Error(`${path} does not export ${factory}`);
  return create as CreateAdapter;
}

/** Builds the official-SDK adapter for a protocol. */
export const sdkAdapterFactory: AdapterFactory = (protocol, options) => {
  let inner: Promise<ModelClient> | undefined;
  return {
    id: options.id,
    async *stream(request, signal) {
      inner ??= load(protocol).then((create) => create(options));
      yield* (await inner).stream(request, signal);
    },
  };
};
