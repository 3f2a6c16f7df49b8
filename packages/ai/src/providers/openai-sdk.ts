import type OpenAI from 'openai';
import { loadOnce } from '../base/load-once.js';

/**
 * The OpenAI SDK, loaded when the first OpenAI-format request (or embedding) is made: some 150
 * modules that every process importing the engine used to load at start — `tandem serve` before
 * it listened, and any command that only talks to a server.
 */
const openaiSdk = loadOnce(async (): Promise<typeof OpenAI> => (await import('openai')).default);

export function loadOpenAISdk(): Promise<typeof OpenAI> {
  return openaiSdk();
}

/** The SDK if it was loaded, else undefined: no error can be one of its classes before that. */
export function loadedOpenAISdk(): typeof OpenAI | undefined {
  return openaiSdk.current();
}
