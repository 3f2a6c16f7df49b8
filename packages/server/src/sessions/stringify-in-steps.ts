/** Elements of a long array serialised per step; each step then yields to the event loop. */
const STEP = 500;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * `JSON.stringify(value)` for plain JSON data (objects, arrays, strings, numbers, booleans, null;
 * undefined members left out, undefined elements as null), done a few hundred array elements at a
 * time with the event loop free in between, so a large snapshot never holds events back for the
 * time one call would take. The value must not change until the promise settles.
 */
export async function stringifyInSteps(value: unknown): Promise<string> {
  const out: string[] = [];
  await write(value, out);
  return out.join('');
}

async function write(value: unknown, out: string[]): Promise<void> {
  if (Array.isArray(value)) {
    if (value.length <= STEP) {
      out.push('[');
      for (let i = 0; i < value.length; i++) {
        if (i > 0) out.push(',');
        await write(value[i] === undefined ? null : value[i], out);
      }
      out.push(']');
      return;
    }
    out.push('[');
    for (let i = 0; i < value.length; i += STEP) {
      const part = value.slice(i, i + STEP).map((element: unknown) => JSON.stringify(element) ?? 'null');
      out.push(i > 0 ? `,${part.join(',')}` : part.join(','));
      await nextTurn();
    }
    out.push(']');
    return;
  }
  if (typeof value === 'object' && value !== null) {
    out.push('{');
    let first = true;
    for (const [key, member] of Object.entries(value)) {
      if (member === undefined || typeof member === 'function' || typeof member === 'symbol') continue;
      out.push(first ? `${JSON.stringify(key)}:` : `,${JSON.stringify(key)}:`);
      first = false;
      await write(member, out);
    }
    out.push('}');
    return;
  }
  out.push(JSON.stringify(value) ?? 'null');
}
