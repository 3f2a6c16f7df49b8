import type Anthropic from '@anthropic-ai/sdk';

type AnthropicSdk = typeof Anthropic;

let loaded: AnthropicSdk | undefined;
let loading: Promise<AnthropicSdk> | undefined;

/**
 * The Anthropic SDK, loaded when the first Anthropic request is made: ~16 MB of resident memory
 * that a server using only other providers should not carry. Loaded once per process; a failed
 * load is retried on the next call.
 */
export function loadAnthropicSdk(): Promise<AnthropicSdk> {
  loading ??= import('@anthropic-ai/sdk').then(
    (module) => (loaded = module.default),
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

/** The SDK if it was loaded, else undefined: no error can be one of its classes before that. */
export function loadedAnthropicSdk(): AnthropicSdk | undefined {
  return loaded;
}
