import { describe, expect, it } from 'vitest';
import { ProviderError } from '@tandem/ai';
import { streamWithOverflowRetry, withOverflowRetry } from './overflow-retry.js';

const overflow = (afterContent = false) =>
  new ProviderError('context_overflow', 'The request does not fit the model window.', { provider: 'openai', model: 'm', afterContent });

describe('withOverflowRetry', () => {
  it('compacts once and retries once on a context overflow', async () => {
    let calls = 0;
    let compactions = 0;
    const value = await withOverflowRetry(
      async () => {
        calls++;
        if (calls === 1) throw overflow();
        return 'answer';
      },
      async () => {
        compactions++;
        return true;
      },
    );
    expect(value).toBe('answer');
    expect([calls, compactions]).toEqual([2, 1]);
  });

  it('propagates a second overflow instead of looping', async () => {
    let calls = 0;
    await expect(
      withOverflowRetry(
        async () => {
          calls++;
          throw overflow();
        },
        async () => true,
      ),
    ).rejects.toMatchObject({ kind: 'context_overflow' });
    expect(calls).toBe(2);
  });

  it('propagates when compaction could not change anything, and ignores other errors', async () => {
    await expect(
      withOverflowRetry(
        async () => Promise.reject(overflow()),
        async () => false,
      ),
    ).rejects.toMatchObject({ kind: 'context_overflow' });
    let compacted = false;
    const auth = new ProviderError('auth', 'bad key', { provider: 'openai', model: 'm' });
    await expect(
      withOverflowRetry(
        async () => Promise.reject(auth),
        async () => (compacted = true),
      ),
    ).rejects.toBe(auth);
    expect(compacted).toBe(false);
  });
});

describe('streamWithOverflowRetry', () => {
  it('re-opens the stream after compaction when nothing was yielded', async () => {
    let opens = 0;
    const events: string[] = [];
    const stream = streamWithOverflowRetry(
      async function* () {
        opens++;
        if (opens === 1) throw overflow();
        yield 'a';
        yield 'b';
      },
      async () => true,
    );
    for await (const e of stream) events.push(e);
    expect(events).toEqual(['a', 'b']);
    expect(opens).toBe(2);
  });

  it('does not retry after content was yielded (requirements M4)', async () => {
    let opens = 0;
    const events: string[] = [];
    const stream = streamWithOverflowRetry(
      async function* () {
        opens++;
        yield 'partial';
        throw overflow();
      },
      async () => true,
    );
    await expect(
      (async () => {
        for await (const e of stream) events.push(e);
      })(),
    ).rejects.toMatchObject({ kind: 'context_overflow' });
    expect(events).toEqual(['partial']);
    expect(opens).toBe(1);
  });
});
