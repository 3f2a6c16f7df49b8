/**
 * A failed model call, classified from the SDK's error class and HTTP status (never from the
 * message text). `message` is one readable sentence: provider, model, status, what to do.
 */
export type ProviderErrorKind =
  | 'rate_limit' // 429: cool the key down, rotate
  | 'auth' // 401/403: bad or expired key; never retried in place
  | 'billing' // 402 or quota exhausted
  | 'server' // 5xx, overloaded
  | 'network' // connection reset, DNS, timeout
  | 'bad_request' // 400/404/422: another key would fail the same way
  | 'content_policy' // refusal by the provider's policy
  | 'context_overflow' // the request does not fit the model's window
  | 'stream_cut' // the stream ended before it was complete
  | 'aborted'; // cancelled by us

export class ProviderError extends Error {
  override readonly name = 'ProviderError';
  constructor(
    readonly kind: ProviderErrorKind,
    message: string,
    readonly details: {
      provider: string;
      model: string;
      status?: number;
      retryAfterMs?: number;
      /** True once the reply had produced content (text or a tool call). */
      afterContent?: boolean;
      cause?: unknown;
    },
  ) {
    super(message);
  }
}
