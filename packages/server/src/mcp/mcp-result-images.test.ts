import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Message } from '@tandem/ai';
import { MAX_TOOL_IMAGE_BYTES, mapToolResult } from './mcp-result.js';
import { IMAGES_DIR, ToolImageStore } from './tool-image-store.js';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

describe('MCP image content as tool images', () => {
  it('keeps image content and image resource blobs as images beside the text, with their decoded size', () => {
    const out = mapToolResult(
      {
        content: [
          { type: 'text', text: 'shot' },
          { type: 'image', mimeType: 'image/PNG', data: PNG },
          { type: 'resource', resource: { uri: 'file:///a.webp', mimeType: 'image/webp', blob: 'UklGRg==' } },
        ],
      },
      [],
    );
    expect(out.output).toBe('shot');
    expect(out.images).toEqual([
      { mimeType: 'image/png', bytes: 70, data: PNG },
      { mimeType: 'image/webp', bytes: 4, data: 'UklGRg==' },
    ]);
  });

  it('an image alone has empty text; data that is not base64, or an image over 5 MB, becomes a line instead', () => {
    expect(mapToolResult({ content: [{ type: 'image', mimeType: 'image/png', data: PNG }] }, [])).toEqual({
      output: '',
      isError: false,
      images: [{ mimeType: 'image/png', bytes: 70, data: PNG }],
    });
    const bad = mapToolResult({ content: [{ type: 'image', mimeType: 'image/png', data: 'not base64!' }] }, []);
    expect(bad.images).toBeUndefined();
    expect(bad.output).toContain('not a base64 image');
    const huge = 'A'.repeat(Math.ceil(((MAX_TOOL_IMAGE_BYTES + 3) * 4) / 3 / 4) * 4);
    const big = mapToolResult({ content: [{ type: 'image', mimeType: 'image/png', data: huge }] }, []);
    expect(big.images).toBeUndefined();
    expect(big.output).toMatch(/^\[image image\/png 5\.0 MB\] \(not shown to you: over the 5 MB limit for images\)$/);
  });
});

describe('ToolImageStore', () => {
  let dir: string;
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps each image once by content, loads it back, and hydrates a replayed conversation without touching its messages', () => {
    dir = mkdtempSync(join(tmpdir(), 'tandem-images-'));
    const store = new ToolImageStore();
    const ref = store.save(dir, { mimeType: 'image/png', data: PNG });
    expect(ref).toMatch(/^[a-f0-9]{64}\.png$/);
    expect(store.save(dir, { mimeType: 'image/png', data: PNG })).toBe(ref);
    expect(readdirSync(join(dir, IMAGES_DIR))).toEqual([ref]);

    const fresh = new ToolImageStore();
    expect(fresh.load(dir, ref)).toBe(PNG);
    expect(fresh.load(dir, '../../etc/passwd')).toBeUndefined();
    expect(fresh.load(dir, `${'0'.repeat(64)}.png`)).toBeUndefined();

    const replayed: Message = { role: 'tool', callId: 'c', name: 't', output: '', isError: false, images: [{ mimeType: 'image/png', bytes: 70, ref }] };
    const gone: Message = {
      role: 'tool',
      callId: 'd',
      name: 't',
      output: '',
      isError: false,
      images: [{ mimeType: 'image/png', bytes: 70, ref: `${'1'.repeat(64)}.png` }],
    };
    const conversation: Message[] = [{ role: 'user', text: 'hi' }, replayed, gone];
    fresh.hydrate(dir, conversation);
    expect(conversation[1]).toMatchObject({ images: [{ ref, data: PNG }] });
    expect(replayed.images?.[0]).not.toHaveProperty('data');
    expect(conversation[2]).toBe(gone);
  });
});
