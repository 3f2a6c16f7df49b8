/** A model id that cannot be used: malformed, or naming a provider Tandem does not know. */
export class ModelSpecError extends Error {
  override readonly name = 'ModelSpecError';
  readonly code = 'bad_request';
}

export interface ModelSpec {
  provider: string;
  /** The provider's own model name; may contain `/` (e.g. `openrouter/openai/gpt-4.1`). */
  model: string;
}

/** Splits `provider/model` at the first `/`. */
export function parseModelSpec(spec: string): ModelSpec {
  const text = typeof spec === 'string' ? spec.trim() : '';
  const slash = text.indexOf('/');
  if (slash <= 0 || slash === text.length - 1) {
    throw new ModelSpecError(`"${String(spec)}" is not a model id; use provider/model, e.g. openai/gpt-4.1-mini or anthropic/claude-sonnet-4-5`);
  }
  return { provider: text.slice(0, slash).toLowerCase(), model: text.slice(slash + 1) };
}
