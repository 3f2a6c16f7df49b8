import type Anthropic from '@anthropic-ai/sdk';
import { loadOnce } from '../base/load-once.js';

/**
 * The Anthropic SDK, loaded when the first Anthropic request is made: ~16 MB of resident memory
 * that a server using only other providers should not carry.
 */
const anthropicSdk = loadOnce(async (): Promise<typeof Anthropic> => (await import('@anthropic-ai/sdk')).default);

export function loadAnthropicSdk(): Promise<typeof Anthropic> {
  return anthropicSdk();
}

/** The SDK if it was loaded, else undefined: no error can be one of its classes before that. */
export function loadedAnthropicSdk(): typeof Anthropic | undefined {
  return anthropicSdk.current();
}
