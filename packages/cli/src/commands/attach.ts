import { runTui } from '@tandem/tui';
import { resolveConnection } from '../connection-args.js';

export interface AttachOptions {
  session?: string | undefined;
  url?: string | undefined;
  token?: string | undefined;
  viewer?: boolean | undefined;
  name: string;
  dataDir: string;
}

/** `tandem attach [SESSION]`: the TUI on any server; the most recent session when none is named. */
export async function attach(options: AttachOptions): Promise<number> {
  const { url, token } = await resolveConnection(options);
  return runTui({ url, token, name: options.name, sessionId: options.session, viewer: options.viewer });
}
