import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { PromptError, readPrompt } from './prompt-input.js';

const pipe = (content?: string | Buffer) => {
  const stream = new PassThrough() as PassThrough & { isTTY?: boolean; fd?: number };
  stream.fd = 0;
  if (content !== undefined) stream.end(content);
  return stream;
};
const tty = () => Object.assign(new PassThrough(), { isTTY: true });

describe('readPrompt', () => {
  it('takes PROMPT, stdin, or PROMPT then stdin after a blank line', async () => {
    expect(await readPrompt({ words: ['fix', 'it'], stdin: tty() })).toBe('fix it');
    expect(await readPrompt({ words: [], stdin: pipe('from stdin\n') })).toBe('from stdin');
    expect(await readPrompt({ words: ['review'], stdin: pipe('diff --git a b\n') })).toBe('review\n\ndiff --git a b');
  });

  it("goes on with PROMPT alone when a pipe gives nothing in time (a script's unused stdin), and says so", async () => {
    let told = false;
    const prompt = await readPrompt({ words: ['hi'], stdin: pipe(), idleStdinMs: 10, onIdleStdin: () => (told = true) });
    expect(prompt).toBe('hi');
    expect(told).toBe(true);
  });

  it('refuses no prompt, a prompt over the limit, NUL bytes and invalid UTF-8, saying what to do', async () => {
    await expect(readPrompt({ words: [], stdin: tty() })).rejects.toThrow(PromptError);
    await expect(readPrompt({ words: [' '], stdin: pipe('') })).rejects.toThrow(/no prompt/);
    await expect(readPrompt({ words: ['x'.repeat(200_001)], stdin: tty() })).rejects.toThrow(/200001 characters, more than the 200000/);
    await expect(readPrompt({ words: [], stdin: pipe(Buffer.from([0x61, 0x00, 0x62])) })).rejects.toThrow(/NUL byte at offset 1/);
    await expect(readPrompt({ words: [], stdin: pipe(Buffer.from([0xc3, 0x28])) })).rejects.toThrow(/not UTF-8/);
  });
});
