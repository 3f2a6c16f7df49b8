import { readFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeClock, makeTempDir, type TempDir } from '@tandem/testkit';
import type { Message } from '@tandem/ai';
import { createOpenAIChatClient } from '@tandem/ai';
import { consolidateMemory } from './consolidate.js';
import { consolidationOutcome } from './consolidation-outcome.js';
import { MemoryStore } from './memory-store.js';
import { anthropicClient, fakeModelServerPerFile } from '@tandem/ai/testing/fake-server';

const fake = fakeModelServerPerFile();
/** The history entries below are stamped with this time. */
const DEC_2_14_03 = Date.UTC(2026, 11, 2, 14, 3);
const dirs: TempDir[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => d.cleanup()));
});

async function openStore(memory?: string): Promise<MemoryStore> {
  const dir = await makeTempDir('tandem-consolidate-');
  dirs.push(dir);
  const store = await MemoryStore.open(dir.path, dir.path);
  if (memory !== undefined) await store.writeMemory(memory);
  return store;
}

const openai = (model: string) => ({
  id: `groq/${model}`,
  client: createOpenAIChatClient({ id: `groq/${model}`, model, baseURL: fake.server.openaiBaseURL, apiKey: 'k' }),
});
const anthropic = (model: string) => ({
  id: `anthropic/${model}`,
  client: anthropicClient(fake.server, model),
});

const conversation: Message[] = [
  { role: 'user', text: 'I prefer pnpm over npm. Set up vitest for packages/core.' },
  { role: 'assistant', text: 'Done: added vitest.config.ts at the repository root.', toolCalls: [] },
];

const save = (
  memory = '# Memory\n- The user prefers pnpm.\n- vitest config lives at the root.',
  entry = '[2026-12-02 14:03] Set up vitest for packages/core; user prefers pnpm.',
) => ({
  toolCalls: [{ name: 'save_memory', args: { memory_update: memory, history_entry: entry } }],
});

describe('consolidateMemory (business-layer fallback over the real SDK adapters)', () => {
  it('succeeds on the first model: MEMORY.md replaced, HISTORY.md appended', async () => {
    const store = await openStore('# Memory\n- old fact');
    fake.server.script('c-first', save());
    const before = fake.server.requests.length;
    const result = await consolidateMemory({ conversation, store, chain: [openai('c-first'), openai('c-unused')], clock: new FakeClock(DEC_2_14_03) });
    expect(result).toMatchObject({ ok: true, model: 'groq/c-first', historyEntry: '[2026-12-02 14:03] Set up vitest for packages/core; user prefers pnpm.' });
    expect(fake.server.requests.length).toBe(before + 1);
    const request = fake.server.requests.at(-1)!;
    expect(request.body.tools.map((t: { function: { name: string } }) => t.function.name)).toEqual(['save_memory']);
    expect(JSON.stringify(request.body.messages)).toContain('old fact'); // current memory is merged
    expect(JSON.stringify(request.body.messages)).toContain('I prefer pnpm over npm');
    expect(await store.readMemory()).toBe('# Memory\n- The user prefers pnpm.\n- vitest config lives at the root.\n');
    expect(await store.readHistory()).toBe('[2026-12-02 14:03] Set up vitest for packages/core; user prefers pnpm.\n');
    expect(consolidationOutcome(result)).toEqual({
      event: { type: 'memory_consolidated', model: 'groq/c-first', historyEntry: '[2026-12-02 14:03] Set up vitest for packages/core; user prefers pnpm.' },
      ack: { consolidated: true },
      clear: true,
    });
  });

  it('moves to the next model when a model answers with text instead of calling save_memory', async () => {
    const store = await openStore();
    fake.server.script('c-chatty', { text: 'Here is a summary: the user prefers pnpm.' });
    fake.server.script('c-second', save());
    const result = await consolidateMemory({ conversation, store, chain: [openai('c-chatty'), anthropic('c-second')], clock: new FakeClock(DEC_2_14_03) });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.model).toBe('anthropic/c-second'); // across protocols
    expect(result.attempts.map((a) => [a.model, a.outcome])).toEqual([
      ['groq/c-chatty', 'no_tool_call'],
      ['anthropic/c-second', 'saved'],
    ]);
  });

  it('moves on when save_memory is called with invalid arguments, and dates an undated entry', async () => {
    const store = await openStore();
    fake.server.script('c-invalid', { toolCalls: [{ name: 'save_memory', args: { memory_update: '', history_entry: 'x' } }] });
    fake.server.script('c-badjson', { toolCalls: [{ name: 'save_memory', args: '{"memory_update": "unterminated' }] });
    fake.server.script('c-undated', save('# Memory\n- fact', 'Set up vitest.'));
    const clock = new FakeClock(Date.UTC(2026, 11, 2, 9, 5));
    const result = await consolidateMemory({ conversation, store, chain: [openai('c-invalid'), openai('c-badjson'), openai('c-undated')], clock });
    expect(result.attempts.map((a) => a.outcome)).toEqual(['invalid_arguments', 'invalid_arguments', 'saved']);
    expect(result.attempts[0]!.detail).toMatch(/memory_update/);
    expect(result.attempts[1]!.detail).toMatch(/not valid JSON/);
    expect(result).toMatchObject({ ok: true, historyEntry: '[2026-12-02 09:05] Set up vitest.' });
  });

  it('times out a hanging model after 30 s of clock time and uses the next one', async () => {
    const store = await openStore();
    const clock = new FakeClock(DEC_2_14_03);
    fake.server.script('c-hang', { hang: true });
    fake.server.script('c-after-hang', save());
    const before = fake.server.requests.length;
    const pending = consolidateMemory({ conversation, store, chain: [openai('c-hang'), openai('c-after-hang')], clock, timeoutMs: 30_000 });
    await expect.poll(() => fake.server.requests.length).toBe(before + 1);
    await clock.advance(29_999);
    expect(fake.server.requests.length).toBe(before + 1); // not yet
    await clock.advance(1);
    const result = await pending;
    expect(result.ok).toBe(true);
    expect(result.attempts.map((a) => [a.model, a.outcome, a.durationMs])).toEqual([
      ['groq/c-hang', 'timeout', 30_000],
      ['groq/c-after-hang', 'saved', 0],
    ]);
  });

  it('when every model fails: ok:false with each attempt in the reason, nothing written', async () => {
    const store = await openStore('# Memory\n- keep me');
    await store.appendHistory('[2026-12-01 10:00] earlier');
    fake.server.script('f-text', { text: 'no tools for me' });
    fake.server.script('f-500', { status: 500 }, { status: 500 }, { status: 500 });
    fake.server.script('f-other-tool', { toolCalls: [{ name: 'read_file', args: { path: 'x' } }] });
    const chain = [openai('f-text'), openai('f-500'), anthropic('f-other-tool'), openai('f-text')];
    const result = await consolidateMemory({ conversation, store, chain, clock: new FakeClock(DEC_2_14_03) });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.reason).toMatch(
      /^all 3 memory models failed: groq\/f-text answered with text instead of calling save_memory; groq\/f-500 .*500.*; anthropic\/f-other-tool answered with other tools \(read_file\)/,
    );
    expect(result.attempts.at(-1)).toMatchObject({ model: 'groq/f-text', outcome: 'skipped_repeat' }); // the visited set
    expect(await store.readMemory()).toBe('# Memory\n- keep me\n');
    expect(await store.readHistory()).toBe('[2026-12-01 10:00] earlier\n');
    const outcome = consolidationOutcome(result);
    expect(outcome.clear).toBe(false); // the session must not be cleared
    expect(outcome.ack).toEqual({ consolidated: false, reason: `memory archival failed, session not cleared: ${result.reason}` });
    expect(outcome.event).toEqual({ type: 'memory_consolidation_failed', reason: outcome.ack.reason });
  });

  it('refuses plainly without a chain, and skips an empty conversation', async () => {
    const store = await openStore();
    expect(await consolidateMemory({ conversation, store, chain: [], clock: new FakeClock(DEC_2_14_03) })).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/no memory consolidation model is configured/),
    });
    expect(await consolidateMemory({ conversation: [], store, chain: [openai('x')], clock: new FakeClock(DEC_2_14_03) })).toMatchObject({
      ok: true,
      skipped: 'the conversation is empty',
    });
  });

  it('stops when the caller cancels', async () => {
    const store = await openStore('# Memory\n- keep me');
    const clock = new FakeClock(DEC_2_14_03);
    fake.server.script('c-cancel', { hang: true });
    const controller = new AbortController();
    const before = fake.server.requests.length;
    const pending = consolidateMemory({ conversation, store, chain: [openai('c-cancel'), openai('c-never')], clock, signal: controller.signal });
    await expect.poll(() => fake.server.requests.length).toBe(before + 1);
    controller.abort();
    const result = await pending;
    expect(result).toMatchObject({ ok: false, reason: expect.stringMatching(/cancelled/) });
    expect(fake.server.requests.length).toBe(before + 1);
    expect(await store.readMemory()).toBe('# Memory\n- keep me\n');
  });

  it('fails without losing anything when MEMORY.md cannot be written', async () => {
    const dir = await makeTempDir('tandem-consolidate-');
    dirs.push(dir);
    const store = await MemoryStore.open(dir.path, dir.path, {
      writeOps: {
        rename: async () => {
          throw new Error('ENOSPC: no space left on device');
        },
      },
    });
    fake.server.script('c-nospace', save());
    const result = await consolidateMemory({ conversation, store, chain: [openai('c-nospace')], clock: new FakeClock(DEC_2_14_03) });
    expect(result).toMatchObject({ ok: false, reason: expect.stringMatching(/MEMORY\.md could not be written \(ENOSPC/) });
    expect(await readFile(store.historyPath, 'utf8').catch(() => '')).toBe('');
  });
});
