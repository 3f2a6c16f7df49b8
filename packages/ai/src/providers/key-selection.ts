import type { ApiKey } from './credentials.js';
import type { Governor } from './governor.js';

/**
 * Picks the key to send with: the first key (in preference order) that is not cooling down and
 * has a request token now; when every usable key must wait for its bucket, the one that frees
 * up first. Undefined when every key is cooling down.
 */
export function pickKey(keys: readonly ApiKey[], governor: Governor, rpm: number | undefined): ApiKey | undefined {
  let best: { key: ApiKey; wait: number } | undefined;
  for (const key of keys) {
    if (governor.isCooling(key.id)) continue;
    const wait = governor.waitMs(key.id, rpm);
    if (wait === 0) return key;
    if (!best || wait < best.wait) best = { key, wait };
  }
  return best?.key;
}

/** Whether another key than `current` could be used right away or after its bucket refills. */
export function hasOtherKey(keys: readonly ApiKey[], current: ApiKey, governor: Governor): boolean {
  return keys.some((k) => k.id !== current.id && !governor.isCooling(k.id));
}
