import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Message, ToolImage } from '@tandem/ai';
import { writeFileAtomicSync } from '@tandem/core';

/** Where a session keeps the images its tools returned: `<sessionDir>/images/<sha256>.<ext>`. */
export const IMAGES_DIR = 'images';
/** Image bytes kept in memory for reloading across turns, over all sessions (least recently used dropped first). */
const DEFAULT_CACHE_BYTES = 32 * 1024 * 1024;
const REF = /^[a-f0-9]{64}\.[a-z0-9]{1,8}$/;

/**
 * The images tools returned, kept once per session as files named by their content's SHA-256,
 * so the event log records only `{ mimeType, bytes, ref }` and stays small. Before a turn's
 * model request the conversation rebuilt from the log gets the bytes back (`hydrate`); an
 * image whose file is gone stays without bytes, and the provider sends a note instead.
 */
export class ToolImageStore {
  private readonly cache = new Map<string, string>();
  private cachedBytes = 0;

  constructor(private readonly maxCacheBytes = DEFAULT_CACHE_BYTES) {}

  /** Writes the image under the session's directory (once per content) and returns its `ref`. */
  save(sessionDir: string, image: { mimeType: string; data: string }): string {
    const bytes = Buffer.from(image.data, 'base64');
    const ref = `${createHash('sha256').update(bytes).digest('hex')}.${extensionOf(image.mimeType)}`;
    const dir = join(sessionDir, IMAGES_DIR);
    const file = join(dir, ref);
    if (!existsSync(file)) {
      mkdirSync(dir, { recursive: true });
      writeFileAtomicSync(file, bytes);
    }
    this.remember(ref, image.data);
    return ref;
  }

  /** The base64 bytes of a stored image, or undefined when the ref is malformed or its file is gone. */
  load(sessionDir: string, ref: string): string | undefined {
    if (!REF.test(ref)) return undefined;
    const hit = this.cache.get(ref);
    if (hit !== undefined) {
      this.cache.delete(ref);
      this.cache.set(ref, hit);
      return hit;
    }
    let data: string;
    try {
      data = readFileSync(join(sessionDir, IMAGES_DIR, ref)).toString('base64');
    } catch {
      return undefined;
    }
    this.remember(ref, data);
    return data;
  }

  /**
   * Gives every tool image of the conversation that has a `ref` but no bytes its bytes back,
   * replacing those messages in the array (never changing the message objects it was given).
   */
  hydrate(sessionDir: string, conversation: Message[]): void {
    conversation.forEach((m, i) => {
      if (m.role !== 'tool' || !m.images?.some((img) => img.data === undefined && img.ref !== undefined)) return;
      let found = false;
      const images: ToolImage[] = m.images.map((img) => {
        if (img.data !== undefined || img.ref === undefined) return img;
        const data = this.load(sessionDir, img.ref);
        if (data === undefined) return img;
        found = true;
        return { ...img, data };
      });
      if (found) conversation[i] = { ...m, images };
    });
  }

  private remember(ref: string, data: string): void {
    if (data.length > this.maxCacheBytes || this.cache.has(ref)) return;
    this.cache.set(ref, data);
    this.cachedBytes += data.length;
    for (const [old, value] of this.cache) {
      if (this.cachedBytes <= this.maxCacheBytes) break;
      this.cache.delete(old);
      this.cachedBytes -= value.length;
    }
  }
}

function extensionOf(mimeType: string): string {
  const sub = mimeType.split('/')[1]?.split(/[+;]/)[0]?.toLowerCase() ?? '';
  const ext = sub === 'jpeg' ? 'jpg' : sub.replace(/[^a-z0-9]/g, '');
  return ext === '' ? 'bin' : ext.slice(0, 8);
}
