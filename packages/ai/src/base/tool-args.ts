/**
 * Tool-call arguments as the conversation keeps them: the raw text the model sent, and its
 * parsed value when that text is valid JSON. Empty text means "no arguments", i.e. `{}`.
 */
export function parseToolArgs(rawArgs: string): unknown {
  if (rawArgs.trim() === '') return {};
  try {
    return JSON.parse(rawArgs) as unknown;
  } catch {
    return undefined;
  }
}

/** The arguments to send back to a provider: the raw text when valid, `{}` otherwise. */
export function argsForReplay(args: unknown, rawArgs: string): { text: string; object: Record<string, unknown> } {
  const valid = args !== undefined && args !== null && typeof args === 'object' && !Array.isArray(args);
  const object = valid ? (args as Record<string, unknown>) : {};
  return { text: valid && rawArgs.trim() !== '' ? rawArgs : JSON.stringify(object), object };
}
