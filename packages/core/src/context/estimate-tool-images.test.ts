import type { Message } from '@tandem/ai';
import { describe, expect, it } from 'vitest';
import { estimateMessageTokens, IMAGE_TOKENS } from './estimate-tokens.js';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const png = { mimeType: 'image/png', bytes: 12 * 1024, data: PNG, ref: 'a.png' };

describe('tool images in the context estimate', () => {
  it('count a fixed upper bound per image, never the length of their base64', () => {
    const text: Message = { role: 'tool', callId: 'c', name: 't', output: 'screen one', isError: false };
    const big = { ...png, data: 'A'.repeat(400_000) };
    const withImages: Message = { ...text, images: [big, png] };
    expect(estimateMessageTokens(withImages) - estimateMessageTokens(text)).toBe(2 * IMAGE_TOKENS);
  });
});
