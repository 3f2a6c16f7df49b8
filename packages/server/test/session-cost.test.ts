import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { memoryFilePath } from '@tandem/core';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FakeRequest } from '@tandem/testkit';
import { fakeModelBed, startTestServer, tempDir, type TestClient, type TestServer } from './server-harness.js';

/**
 * What a session costs, through a real server on the scripted model server in the Anthropic wire
 * format: cache breakpoints that read the previous request's prefix, a system prompt frozen for
 * the session (so the prefix stays the same), usage and cost in events, `session:usage`, the
 * audit, and across a restart.
 */
const bed = fakeModelBed();
const PRICE = { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75, checked: '2026-12-05' };
const claude = {
  id: 'anthropic/claude-fake',
  label: 'Claude (fake)',
  provider: 'anthropic',
  protocol: 'anthropic-messages',
  contextWindow: 200_000,
  maxOutput: 8_000,
  tools: true,
  tier: 'test',
  description: 'test model',
  price: PRICE,
};

interface Bed {
  s: TestServer;
  alice: TestClient;
  sessionId: string;
  workspace: string;
  dataDir: string;
}

async function start(dataDir?: string, workspace?: string): Promise<Omit<Bed, 'sessionId'>> {
  const dir = dataDir ?? (await tempDir('tandem-cost-data-')).path;
  const ws = workspace ?? (await tempDir('tandem-cost-ws-')).path;
  if (!dataDir) {
    await writeFile(join(dir, 'config.json'), JSON.stringify({ models: [claude] }));
    await writeFile(join(ws, 'notes.txt'), 'the answer is 42\n');
    await writeFile(join(ws, 'AGENTS.md'), 'Rule one: be brief.\n');
  }
  const s = await startTestServer({
    dataDir: dir,
    defaultCwd: ws,
    defaultModel: 'anthropic/claude-fake',
    env: { ...bed.env(), ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: bed.fake.anthropicBaseURL },
  });
  bed.server = s;
  return { s, alice: await s.connect('alice'), workspace: ws, dataDir: dir };
}

async function session(): Promise<Bed> {
  const b = await start();
  const { session } = await b.alice.ok('session:create', {});
  await b.alice.ok('session:attach', { sessionId: session.id, role: 'driver' });
  return { ...b, sessionId: session.id };
}

let turns = 0;

/** A turn that reads notes.txt twice (other arguments each time: the same call repeated would wait out a cooldown), then answers. */
async function turn(b: Bed, text: string): Promise<void> {
  const from = b.alice.events.at(-1)?.seq ?? 0;
  const n = ++turns;
  bed.fake.script(
    'claude-fake',
    { toolCalls: [{ name: 'read_file', args: { path: 'notes.txt', limit: 100 + n } }] },
    { toolCalls: [{ name: 'read_file', args: { path: 'notes.txt', limit: 200 + n } }] },
    { text: 'It is 42.' },
  );
  await b.alice.ok('session:send', { sessionId: b.sessionId, text });
  await b.alice.waitFor((e) => e.type === 'turn_done' && e.seq > from);
}

const toClaude = (): FakeRequest[] => bed.fake.requests.filter((r) => r.model === 'claude-fake');
const systemOf = (r: FakeRequest): string => JSON.stringify(r.body.system);
const price = (u: { inputTokens: number; outputTokens: number; cacheReadTokens: number; cacheWriteTokens: number }) =>
  ((u.inputTokens - u.cacheReadTokens - u.cacheWriteTokens) * PRICE.input +
    u.cacheReadTokens * PRICE.cacheRead +
    u.cacheWriteTokens * PRICE.cacheWrite +
    u.outputTokens * PRICE.output) /
  1e6;

describe('what a session costs', () => {
  it('each request reads the previous prefix; usage, session:usage and the audit count cache reads and writes and price them', async () => {
    const b = await session();
    await turn(b, 'what is in notes.txt?');
    await turn(b, 'and again?');
    const requests = toClaude();
    expect(requests).toHaveLength(6);
    for (let i = 1; i < requests.length; i++) expect(requests[i]!.cache!.read).toBe(requests[i - 1]!.cache!.read + requests[i - 1]!.cache!.write);
    expect(requests[0]!.rawBody).toContain('"cache_control"');

    const usageEvents = b.alice.events.filter((e) => e.type === 'usage');
    expect(usageEvents).toHaveLength(2);
    const read = requests.reduce((n, r) => n + r.cache!.read, 0);
    const written = requests.reduce((n, r) => n + r.cache!.write, 0);
    const { total, models } = await b.alice.ok('session:usage', { sessionId: b.sessionId });
    expect(total).toMatchObject({ turns: 2, cacheReadTokens: read, cacheWriteTokens: written, unpricedTurns: 0 });
    expect(total.cacheReadTokens).toBeGreaterThan(total.cacheWriteTokens);
    expect(total.costUsd).toBeCloseTo(price(total), 12);
    expect(models).toEqual([{ ...total, model: 'anthropic/claude-fake' }]);
    // Cached, the session costs less than the same tokens uncached.
    expect(total.costUsd).toBeLessThan(((total.inputTokens * PRICE.input + total.outputTokens * PRICE.output) / 1e6) * 0.75);

    // One audit record per call; each reply's request is on the first of its calls.
    const { records } = await b.alice.ok('audit:query', { sessionId: b.sessionId });
    expect(records).toHaveLength(4);
    const audited = records.map((r) => r.usage);
    expect(audited.every((u) => u !== undefined)).toBe(true);
    const asking = [0, 1, 3, 4]; // the requests whose replies called a tool (2 and 5 answered)
    expect(audited.map((u) => u!.cacheWriteTokens)).toEqual(asking.map((i) => requests[i]!.cache!.write));
    expect(audited.every((u) => u!.costUsd! > 0)).toBe(true);
  });

  it('the system prompt stays byte for byte the same across turns, though AGENTS.md changed; /clear or session:reload read it again', async () => {
    const b = await session();
    await turn(b, 'first');
    await writeFile(join(b.workspace, 'AGENTS.md'), 'Rule two: cite line numbers.\n');
    await turn(b, 'second');
    const systems = new Set(toClaude().map(systemOf));
    expect(systems.size).toBe(1);
    expect([...systems][0]).toContain('Rule one: be brief.');

    await b.alice.ok('session:reload', { sessionId: b.sessionId });
    await turn(b, 'third');
    expect(systemOf(toClaude().at(-1)!)).toContain('Rule two: cite line numbers.');
    // The reload breaks the cache once, knowingly: the third turn's first request reads only the tools.
    const third = toClaude().at(-3)!;
    expect(third.cache!.read).toBeLessThan(toClaude().at(-4)!.cache!.read);

    await writeFile(join(b.workspace, 'AGENTS.md'), 'Rule three: no emojis.\n');
    await b.alice.ok('session:clear', { sessionId: b.sessionId });
    await turn(b, 'fourth');
    expect(systemOf(toClaude().at(-1)!)).toContain('Rule three: no emojis.');
  });

  it('memory enters the prompt frozen: written during the session, it counts from the next /new or reload, not the next turn', async () => {
    const b = await session();
    const memory = await memoryFilePath(b.dataDir, b.workspace);
    await mkdir(dirname(memory), { recursive: true });
    await writeFile(memory, '# Memory\n- The deploy target is fly.io.\n');
    await turn(b, 'first');
    await writeFile(memory, '# Memory\n- The deploy target is render.com.\n');
    await turn(b, 'second');
    const systems = toClaude().map(systemOf);
    expect(new Set(systems).size).toBe(1);
    expect(systems[0]).toContain('fly.io');
    await b.alice.ok('session:reload', { sessionId: b.sessionId });
    await turn(b, 'third');
    expect(systemOf(toClaude().at(-1)!)).toContain('render.com');
  });

  it('keeps the totals across a restart', async () => {
    const b = await session();
    await turn(b, 'what is in notes.txt?');
    const before = await b.alice.ok('session:usage', { sessionId: b.sessionId });
    await b.s.stop();
    bed.server = undefined;
    const again = await start(b.dataDir, b.workspace);
    expect(await again.alice.ok('session:usage', { sessionId: b.sessionId })).toEqual(before);
    expect(before.total.turns).toBe(1);
    expect(before.total.costUsd).toBeGreaterThan(0);
  });

  it('refuses session:usage for an unknown session, and session:reload to a client not attached as driver', async () => {
    const b = await session();
    expect(await b.alice.request('session:usage', { sessionId: 'nope' })).toMatchObject({ ok: false, error: { code: 'not_found' } });
    const bob = await b.s.connect('bob');
    expect(await bob.request('session:reload', { sessionId: b.sessionId })).toMatchObject({ ok: false, error: { code: 'forbidden' } });
  });
});
