import type { AdapterOptions } from './adapter-options.js';
import type { ModelClient, WireProtocol } from './types.js';

/** Builds the adapter that speaks a protocol. Tests and hosts may pass their own. */
export type AdapterFactory = (protocol: WireProtocol, options: AdapterOptions) => ModelClient;

/** The key sent to servers that take none (the SDKs insist on a non-empty one). */
export const NO_KEY = 'no-key-needed';
