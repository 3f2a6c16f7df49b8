import { lend, leaseOf } from './body-lease.js';

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

/**
 * Memory of bodies above BODY_SIZE_STEP whose requests are over, kept to build the next ones
 * in (body-lease.ts says why). One is enough for a conversation: its next body is built from its
 * last one, in the memory of the one before. More would only hold memory while a session idles
 * (a client's bodies are its session's: an idle one keeps its last body and this one spare).
 */
const SPARE_KEPT = 1;

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
  /** Free memory to build bodies in: no one holds it and no list's last body is in it. */
  private readonly spare: ArrayBuffer[] = [];

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
    const body = this.allocate(length);
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

  /**
   * The request that sent `body` is over, its retries included: once no transport still reads
   * it either, its memory is used for a later body. Call it once the body is no longer read;
   * a body never given back is simply left to the GC.
   */
  done(body: Uint8Array): void {
    leaseOf(body)?.done();
  }

  /** Memory for a body of `length` bytes: a large one lent, in whole size steps, reused when free. */
  private allocate(length: number): Uint8Array {
    if (length <= BODY_SIZE_STEP) return Buffer.allocUnsafe(length);
    const capacity = Math.ceil(length / BODY_SIZE_STEP) * BODY_SIZE_STEP;
    const memory = this.takeSpare(capacity) ?? Buffer.allocUnsafeSlow(capacity).buffer;
    const body = Buffer.from(memory, 0, length);
    lend(body, () => this.freed(memory));
    return body;
  }

  /** The smallest spare memory that holds `capacity` bytes, taken out of the spares. */
  private takeSpare(capacity: number): ArrayBuffer | undefined {
    let best = -1;
    this.spare.forEach((memory, i) => {
      if (memory.byteLength >= capacity && (best < 0 || memory.byteLength < this.spare[best]!.byteLength)) best = i;
    });
    return best < 0 ? undefined : this.spare.splice(best, 1)[0];
  }

  /** Its lease is free: spare now, unless it is still a list's last body (the next body copies from it; `unlanded` then). */
  private freed(memory: ArrayBuffer): void {
    if (!this.isLanded(memory)) this.addSpare(memory);
  }

  private addSpare(memory: ArrayBuffer): void {
    if (this.spare.includes(memory)) return;
    this.spare.push(memory);
    if (this.spare.length > SPARE_KEPT) {
      // The smallest goes: a growing conversation needs the larger one next.
      const smallest = this.spare.reduce((at, m, i) => (m.byteLength < this.spare[at]!.byteLength ? i : at), 0);
      this.spare.splice(smallest, 1);
    }
  }

  private isLanded(memory: ArrayBufferLike): boolean {
    for (const landed of this.landed.values()) if (landed.body.buffer === memory) return true;
    return false;
  }

  private keep(key: object, landed: Landed): void {
    const before = this.landed.get(key);
    this.landed.delete(key);
    this.landed.set(key, landed);
    let evicted: Landed | undefined;
    if (this.landed.size > LISTS_KEPT) {
      const oldest = this.landed.keys().next().value as object;
      evicted = this.landed.get(oldest);
      this.landed.delete(oldest);
    }
    for (const gone of [before, evicted]) if (gone) this.unlanded(gone.body);
  }

  /** A body is no longer some list's last one: if no one holds it any more, its memory is spare now. */
  private unlanded(body: Uint8Array): void {
    if (leaseOf(body)?.free && !this.isLanded(body.buffer)) this.addSpare(body.buffer as ArrayBuffer);
  }
}
