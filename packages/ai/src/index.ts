// The model side of Tandem: the message contract, the providers (wire formats behind a registry
// keyed by API, the resilient client, the catalog, prices, credentials) and the small pieces they
// share with the engine. The provider SDKs load on the first request, never at import.
export * from './base/index.js';
export * from './messages.js';
export * from './ports/clock.js';
export * from './providers/index.js';
