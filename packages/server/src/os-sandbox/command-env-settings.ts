import type { Tokens } from '../auth.js';
import type { ServerSettings } from '../config/server-settings.js';
import { commandEnvPolicy, type CommandEnvPolicy } from './command-env.js';

/**
 * The command environment policy of a server: config.json `sandbox.passEnv`, the server's
 * tokens (by value), and the variables config.json names as holding keys (`webSearch.apiKeyEnv`,
 * `embeddings.apiKeyEnv`, each CalDAV `passwordEnv`), which are never passed.
 */
export function commandEnvPolicyFor(settings: ServerSettings, tokens: Tokens): CommandEnvPolicy {
  const keyVariables: string[] = [];
  const search = settings.webSearch as unknown;
  for (const backend of Array.isArray(search) ? search : [search]) {
    const name = (backend as { apiKeyEnv?: unknown } | undefined)?.apiKeyEnv;
    if (typeof name === 'string') keyVariables.push(name);
  }
  if (settings.embeddings?.apiKeyEnv) keyVariables.push(settings.embeddings.apiKeyEnv);
  for (const calendar of (settings.calendars ?? []) as unknown[]) {
    const name = (calendar as { caldav?: { passwordEnv?: unknown } }).caldav?.passwordEnv;
    if (typeof name === 'string') keyVariables.push(name);
  }
  return commandEnvPolicy({ passEnv: settings.sandbox?.passEnv ?? [], tokens: [tokens.control, tokens.view], keyVariables });
}
