/**
 * Every command payload is a plain JSON object. socket.io hands a handler whatever the client
 * sent — a Buffer for binary data, an array, a string — and zod reads a Buffer (an object with
 * no known keys) as `{}`, so the shape is checked before the schema: anywhere in the payload,
 * only JSON values (plain objects, arrays, strings, finite numbers, booleans, null) are accepted.
 */

/** Deeper than any command payload; past it the payload is refused rather than walked. */
const MAX_DEPTH = 32;
const TOO_DEEP = Symbol('too deep');

/** Why `value` is not a plain JSON object (`undefined` when it is one). */
export function notAJsonObject(value: unknown): string | undefined {
  if (!isPlainObject(value)) return `expected a JSON object such as {"sessionId": "…"}, got ${describe(value)}`;
  const inside = firstNonJson(value, 0);
  return inside ? `the payload must be plain JSON; ${inside.path} is ${describe(inside.value)}` : undefined;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

function firstNonJson(value: unknown, depth: number, path = 'payload'): { path: string; value: unknown } | undefined {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return undefined;
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : { path, value };
  if (depth > MAX_DEPTH) return { path, value: TOO_DEEP };
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = firstNonJson(value[i], depth + 1, `${path}[${i}]`);
      if (found) return found;
    }
    return undefined;
  }
  if (!isPlainObject(value)) return { path, value };
  for (const key of Object.keys(value)) {
    const found = firstNonJson(value[key], depth + 1, `${path}.${key}`);
    if (found) return found;
  }
  return undefined;
}

/** A few words naming what a value is, for the error message. */
export function describe(value: unknown): string {
  if (value === TOO_DEEP) return `nested more than ${MAX_DEPTH} levels deep`;
  if (value === null) return 'null';
  if (value === undefined) return 'nothing';
  if (Buffer.isBuffer(value)) return `binary data (${value.length} bytes)`;
  if (value instanceof ArrayBuffer) return `binary data (${value.byteLength} bytes)`;
  if (ArrayBuffer.isView(value)) return `binary data (${value.byteLength} bytes)`;
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return 'a string';
  if (typeof value === 'number') return Number.isFinite(value) ? 'a number' : String(value);
  if (typeof value === 'boolean') return 'a boolean';
  if (typeof value === 'object') return `an object of type ${(value as object).constructor?.name ?? 'unknown'}`;
  return `a ${typeof value}`;
}
