import { providerEnvDigest, providersWithKey } from '@tandem/server/local';

/**
 * One line when this shell's provider environment (API keys, base URLs, TANDEM_MODEL,
 * TANDEM_MEMORY_MODELS) differs from the one the running server started with; undefined when
 * they match. Digests are compared, never values.
 */
export function envMismatch(server: { envDigest: string; providers: string[] }, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (server.envDigest === providerEnvDigest(env)) return undefined;
  const onlyHere = providersWithKey(env).filter((name) => !server.providers.includes(name));
  const detail = onlyHere.length > 0 ? ` (a key for ${onlyHere.join(', ')} is set here, not in the server)` : '';
  return `this shell's provider settings (API keys, base URLs, TANDEM_MODEL) differ from the running server's${detail}; run \`tandem restart\` to use them`;
}
