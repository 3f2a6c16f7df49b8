import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SessionEventSchema } from '@tandem/shared';
import { FakeClock, makeTempDir, type TempDir } from '@tandem/testkit';
import { fakeModelServerPerTest } from '@tandem/ai/testing/fake-server';
import type { Message } from '@tandem/ai';
import { resolveMemoryChain } from '@tandem/ai';
import { ARCHIVAL_FAILED } from './consolidation-outcome.js';
import { consolidateSession } from './consolidate-session.js';
import { WorkspaceMemory } from './workspace-memory.js';

const fake = fakeModelServerPerTest();
let dir: TempDir;
beforeEach(async () => {
  dir = await makeTempDir('tandem-consolidate-session-');
});
afterEach(async () => {
  await dir.cleanup();
});

const KEY = 'sk-proj-TESTKEY0123456789abcdefghijklmnop';

/** The chain the server builds: TANDEM_MEMORY_MODELS through the real resilient OpenAI clients. */
function chain(models: string, clock = new FakeClock()) {
  const env = { OPENAI_API_KEY: KEY, OPENAI_BASE_URL: fake.server.openaiBaseURL, TANDEM_MEMORY_MODELS: models };
  return { env, clock, ...resolveMemoryChain({ env, clock }) };
}

const conversation: Message[] = [
  { role: 'user', text: 'Rename the CLI flag --dir to --data-dir everywhere.' },
  { role: 'assistant', text: 'Renamed it in packages/cli/src/serve.ts and the docs.', toolCalls: [] },
];

const stamp = (e: object, seq: number) => SessionEventSchema.parse({ sessionId: 's', seq, ts: new Date(0).toISOString(), ...e });

describe('consolidateSession (session:new)', () => {
  it('archives with the first model that calls save_memory, then clears', async () => {
    const wm = await WorkspaceMemory.open({ dataDir: dir.path, workspace: dir.path });
    const c = chain('openai/mem-a,openai/mem-b');
    expect(c.skipped).toEqual([]);
    fake.server.script('mem-a', { text: 'Sure, I will remember that.' }); // no tool call: the business layer moves on
    fake.server.script('mem-b', {
      toolCalls: [
        {
          name: 'save_memory',
          args: { memory_update: '# Memory\n- The CLI flag is --data-dir.', history_entry: '[2026-12-02 12:00] Renamed --dir to --data-dir in packages/cli.' },
        },
      ],
    });

    const out = await consolidateSession({ conversation, workspaceMemory: wm, chain: c.chain, clock: c.clock, by: 'ana', env: c.env });

    expect(out.ok).toBe(true);
    expect(out.clear).toBe(true);
    expect(out.ack).toEqual({ consolidated: true });
    expect(out.events).toEqual([
      { type: 'memory_consolidated', model: 'openai/mem-b', historyEntry: '[2026-12-02 12:00] Renamed --dir to --data-dir in packages/cli.' },
      { type: 'conversation_cleared', by: 'ana' },
    ]);
    out.events.forEach((e, i) => stamp(e, i + 1));
    expect(out.attempts.map((a) => [a.model, a.outcome])).toEqual([
      ['openai/mem-a', 'no_tool_call'],
      ['openai/mem-b', 'saved'],
    ]);
    expect(await wm.store.readMemory()).toBe('# Memory\n- The CLI flag is --data-dir.\n');
    expect(await wm.store.readHistory()).toContain('Renamed --dir to --data-dir');
    expect(fake.server.requests.map((r) => r.model)).toEqual(['mem-a', 'mem-b']);
  });

  it('does not clear when every model fails, says so, and never puts a key in an event', async () => {
    const wm = await WorkspaceMemory.open({ dataDir: dir.path, workspace: dir.path });
    await wm.store.writeMemory('# Memory\n- old fact');
    const c = chain('openai/mem-x,openai/mem-y');
    fake.server.script('mem-x', { status: 400, errorBody: { error: { message: `Invalid request for key ${KEY}`, type: 'invalid_request_error' } } });
    fake.server.script('mem-y', { toolCalls: [{ name: 'save_memory', args: { memory_update: '', history_entry: '' } }] });

    const out = await consolidateSession({ conversation, workspaceMemory: wm, chain: c.chain, clock: c.clock, by: 'ana', env: c.env });

    expect(out.ok).toBe(false);
    expect(out.clear).toBe(false);
    expect(out.events).toHaveLength(1);
    const failed = stamp(out.events[0]!, 1);
    expect(failed.type).toBe('memory_consolidation_failed');
    const reason = (failed as { reason: string }).reason;
    expect(reason.startsWith(`${ARCHIVAL_FAILED}: all 2 memory models failed: `)).toBe(true);
    expect(reason).toContain('openai/mem-y called save_memory with invalid arguments');
    expect(out.ack).toEqual({ consolidated: false, reason });
    expect(JSON.stringify(out.events)).not.toContain(KEY);
    expect(JSON.stringify(out.ack)).not.toContain(KEY);
    expect(out.events.some((e) => e.type === 'conversation_cleared')).toBe(false);
    expect(await wm.store.readMemory()).toBe('# Memory\n- old fact\n'); // nothing lost
  });

  it('moves on from a model that does not answer within the attempt timeout (fake clock)', async () => {
    const wm = await WorkspaceMemory.open({ dataDir: dir.path, workspace: dir.path });
    const clock = new FakeClock();
    const c = chain('openai/mem-slow,openai/mem-fast', clock);
    fake.server.script('mem-slow', { hang: true });
    fake.server.script('mem-fast', { toolCalls: [{ name: 'save_memory', args: { memory_update: '# Memory\n- fast', history_entry: 'Renamed the flag.' } }] });

    const pending = consolidateSession({ conversation, workspaceMemory: wm, chain: c.chain, clock, by: 'ana', timeoutMs: 30_000 });
    await expect.poll(() => fake.server.requests.length).toBe(1);
    await clock.waitForSleepers(1);
    await clock.advance(30_000);
    const out = await pending;

    expect(out.ack).toEqual({ consolidated: true });
    expect(out.attempts.map((a) => [a.model, a.outcome])).toEqual([
      ['openai/mem-slow', 'timeout'],
      ['openai/mem-fast', 'saved'],
    ]);
    expect(out.events[0]).toMatchObject({
      type: 'memory_consolidated',
      model: 'openai/mem-fast',
      historyEntry: expect.stringMatching(/^\[\d{4}-\d{2}-\d{2} \d{2}:\d{2}\] Renamed the flag\.$/),
    });
  });

  it('clears an empty conversation without a model call', async () => {
    const wm = await WorkspaceMemory.open({ dataDir: dir.path, workspace: dir.path });
    const c = chain('openai/mem-a');
    const out = await consolidateSession({ conversation: [], workspaceMemory: wm, chain: c.chain, clock: c.clock, by: 'bo' });
    expect(out).toMatchObject({
      ok: true,
      clear: true,
      ack: { consolidated: true, reason: 'the conversation is empty' },
      events: [{ type: 'conversation_cleared', by: 'bo' }],
    });
    expect(fake.server.requests).toHaveLength(0);
  });
});
