import { type AdapterOptions, errorContext, sdkClientSettings } from './adapter-options.js';
import { RequestBytes } from './request-bytes.js';

/** An SDK's client class, as its loader resolves it. */
type SdkClass<C> = new (settings: ReturnType<typeof sdkClientSettings>) => C;

/**
 * What an SDK adapter keeps across its requests: `clientOf()`, the SDK's client, made with the
 * first request (the SDK module loads then, never at start-up) and once only, a failed load
 * tried again at the next request; `ctx`, who its errors name; `bodies`, the last request
 * body's bytes (request-bytes.ts); `toolsKey`, the key its tool list is kept under there.
 */
export function adapterState<C>(loadSdk: () => Promise<SdkClass<C>>, options: AdapterOptions) {
  let client: Promise<C> | undefined;
  const clientOf = (): Promise<C> =>
    (client ??= loadSdk().then(
      (Sdk) => new Sdk(sdkClientSettings(options)),
      (error: unknown) => {
        client = undefined;
        throw error;
      },
    ));
  return { clientOf, ctx: errorContext(options), bodies: new RequestBytes(), toolsKey: {} };
}
