const encoder = new TextEncoder();

/** `,` and the JSON of an object, as UTF-8. */
function listItemBytes(value: object): Uint8Array {
  return encoder.encode(`,${JSON.stringify(value)}`);
}

/**
 * Conversations whose last body is kept: the ones in use. A conversation that comes back after
 * others pushed it out is written whole once, then grows from there again. Bounded, so idle
 * sessions hold no second copy of their conversation.
 */
const LISTS_KEPT = 16;

/**
 * Bodies above this size are allocated in whole multiples of it. A conversation's bodies grow by
 * a few hundred bytes a step, and memory freed for a body is only reused for one that fits: with
 * every body a little larger than the last, each took fresh memory from the allocator and its
 * heap grew with the session (a 200-step turn's peak RSS by ~0.8 MB more, median of 10 runs).
 * In whole multiples, the bodies of ~40 steps share one size and reuse each other's memory.
 */
export const BODY_SIZE_STEP = 16_384;

/** One JSON array of a request body: its name, what it belongs to (e.g. the conversation), its items. */
export interface BodyList {
  name: string;
  key: object;
  items: readonly object[];
}

/** Where a list's items landed in the last body built for its key. */
interface Landed {
  items: readonly object[];
  body: Uint8Array;
  /** Where each item's bytes end in `body` (each item's bytes begin with a comma). */
  ends: number[];
  /** Where the first item's bytes begin in `body`. */
  start: number;
}

/**
 * Request bodies as UTF-8 JSON, each built from the one before.
 *
 * Each item of a list is an object that stays the same from one request to the next while it
 * is unchanged (see conversion-cache.ts) and is not changed in place once made. A list whose
 * first items are the same objects as in the last body built for its key (a conversation that
 * grew) copies those bytes from that body, and only the items after them are stringified and
 * encoded. So a request costs one copy of its bytes, not a JSON.stringify and a UTF-8 encoding of
 * the whole conversation: those were the largest cost a long session added per step, and they
 * grew with the session.
 */
export class RequestBytes {
  /** By key, the most recently used last. */
  private readonly landed = new Map<object, Landed>();

  /**
   * `fields` as a JSON object with the lists added under their names (an empty list is left
   * out, as an absent field): the same JSON as stringifying the whole body.
   */
  body(fields: Record<string, unknown>, lists: readonly BodyList[]): Uint8Array {
    const head = JSON.stringify(fields);
    const open = encoder.encode(head.slice(0, -1));
    let first = head === '{}';
    const plans = lists
      .filter((list) => list.items.length > 0)
      .map((list) => {
        // The name only: the first item's leading comma becomes the list's opening bracket.
        const opening = encoder.encode(`${first ? '' : ','}${JSON.stringify(list.name)}:`);
        first = false;
        const before = this.landed.get(list.key);
        // A body handed on is never changed here; should one be detached on the way, it is not reused.
        const usable = before && before.body.byteLength > 0 ? before : undefined;
        let same = 0;
        if (usable) while (same < usable.items.length && same < list.items.length && usable.items[same] === list.items[same]) same++;
        const kept = same > 0 ? usable!.body.subarray(usable!.start, usable!.ends[same - 1]) : undefined;
        return {
          list,
          opening,
          kept,
          keptEnds: same > 0 ? usable!.ends : [],
          keptFrom: usable?.start ?? 0,
          same,
          added: list.items.slice(same).map(listItemBytes),
        };
      });
    const close = 1; // ']' after each list, '}' at the end
    let length = open.length + close;
    for (const plan of plans) length += plan.opening.length + (plan.kept?.length ?? 0) + plan.added.reduce((n, piece) => n + piece.length, 0) + close;
    const capacity = length > BODY_SIZE_STEP ? Math.ceil(length / BODY_SIZE_STEP) * BODY_SIZE_STEP : length;
    const body = Buffer.allocUnsafe(capacity).subarray(0, length);
    body.set(open, 0);
    let at = open.length;
    for (const plan of plans) {
      body.set(plan.opening, at);
      at += plan.opening.length;
      const start = at;
      const ends: number[] = [];
      if (plan.kept) {
        body.set(plan.kept, at);
        // The kept items' ends, moved by as much as their bytes moved (one pass, no copy between).
        const shift = start - plan.keptFrom;
        for (let i = 0; i < plan.same; i++) ends.push(plan.keptEnds[i]! + shift);
        at += plan.kept.length;
      }
      for (const piece of plan.added) {
        body.set(piece, at);
        at += piece.length;
        ends.push(at);
      }
      body[start] = 0x5b; // '[' in place of the first item's comma
      body[at++] = 0x5d; // ']'
      this.keep(plan.list.key, { items: plan.list.items, body, ends, start });
    }
    body[at] = 0x7d; // '}'
    return body;
  }

  private keep(key: object, landed: Landed): void {
    this.landed.delete(key);
    this.landed.set(key, landed);
    if (this.landed.size > LISTS_KEPT) this.landed.delete(this.landed.keys().next().value as object);
  }
}
