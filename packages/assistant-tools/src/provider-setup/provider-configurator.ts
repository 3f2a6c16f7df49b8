/** What configure_provider asks of the host: store the key encrypted, the rest in config.json. */
export interface ProviderChange {
  provider: string;
  apiKey?: string;
  baseURL?: string;
  /** `provider/model`, used for sessions created afterwards that name no model. */
  model?: string;
}

export interface ProviderConfigurator {
  /** Applies the change atomically; resolves with one line saying what changed (never the key). Throws a readable Error. */
  configure(change: ProviderChange): Promise<string>;
}
