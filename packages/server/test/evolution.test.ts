import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SessionEvent } from '@tandem/shared';
import { FakeClock, type FakeReply, type FakeRequest } from '@tandem/testkit';
import { driverSession } from './mcp-harness.js';
import { fakeModelBed, startTestServer, tempDir } from './server-harness.js';

/**
 * Self-evolution through real turns: agents with and without `evolve: true`, signals from their
 * turns, reflections on an injected clock answered by the fake model server (the memory chain
 * is `openai/fake-memory`, on the same fake), the private library loaded for its agent only.
 */
const bed = fakeModelBed();
const HOUR = 3_600_000;

const messagesOf = (req: FakeRequest): Array<{ role: string; content?: unknown }> => req.body?.messages ?? [];
const systemOf = (req: FakeRequest): string => String(messagesOf(req).find((m) => m.role === 'system')?.content ?? '');
const textOf = (req: FakeRequest): string => JSON.stringify(messagesOf(req));
const isReflection = (req: FakeRequest) => systemOf(req).includes('You are the reflection step');

function defineAgent(workspace: string, name: string, frontmatter: string, prompt: string): void {
  const dir = join(workspace, '.tandem', 'agents');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${name}.md`), `---\nname: ${name}\n${frontmatter}\n---\n${prompt}\n`);
}

const reflectionReply = (skills: Array<{ name: string; description: string; body: string }>): FakeReply => ({
  toolCalls: [
    {
      name: 'record_reflection',
      args: {
        summary: 'The person wants changelogs as bullet points.',
        profile: '- Strength: writes clear changelogs.\n- Lesson: use bullet points.',
        skills: skills.map((s) => ({ action: 'create', ...s })),
      },
    },
  ],
  usage: { input: 900, output: 120 },
});

async function setup() {
  const clock = new FakeClock();
  const dataDir = (await tempDir('tandem-data-')).path;
  bed.server = await startTestServer({
    env: { ...bed.env(), TANDEM_MEMORY_MODELS: 'openai/fake-memory' },
    dataDir,
    clock,
    settings: { agents: { reflection: { intervalSeconds: 3600, maxSkillsPerRun: 1 } } },
  });
  const ws = bed.server.workspace.path;
  defineAgent(ws, 'writer', 'description: Writes changelogs.\nevolve: true', 'ROLE-WRITER You write changelogs.');
  defineAgent(ws, 'tester', 'description: Writes tests.\nevolve: true', 'ROLE-TESTER You write tests.');
  defineAgent(ws, 'plain', 'description: Does not learn.', 'ROLE-PLAIN You just answer.');
  const { client, sessionId } = await driverSession(bed.server);
  await client.ok('session:configure', { sessionId, mode: 'full-auto' });
  return { clock, dataDir, ws, client, sessionId };
}

/** Sends a message and waits for the turn it starts to end. */
async function turn(client: Awaited<ReturnType<typeof setup>>['client'], sessionId: string, text: string): Promise<void> {
  const before = client.events.length;
  await client.ok('session:send', { sessionId, text });
  await client.waitFor((e) => e.type === 'turn_done' && client.events.indexOf(e) >= before && e.taskId === undefined);
}

describe('self-evolution', () => {
  it('records a correction, reflects on the clock with the memory chain, loads the new skill for that agent only, and can revert it; agents without evolve never change', async () => {
    const { clock, dataDir, client, sessionId } = await setup();
    bed.fake.setHandler((req): FakeReply => {
      if (isReflection(req)) {
        if (textOf(req).includes('Agent \\"tester\\"')) return { text: 'I would rather chat than call the tool.' };
        return reflectionReply([
          { name: 'bullet-points', description: 'Changelogs as bullet points.', body: 'LEARNED-BODY: write each change as a bullet point.' },
          { name: 'second-skill', description: 'Over the cap.', body: 'never written' },
        ]);
      }
      const system = systemOf(req);
      if (system.includes('ROLE-WRITER')) return { text: 'Here is the changelog as prose.' };
      if (system.includes('ROLE-TESTER')) return { text: 'Here are the tests.' };
      if (system.includes('ROLE-PLAIN')) return { text: 'A plain answer.' };
      return { text: 'commander here' };
    });

    await turn(client, sessionId, '@writer write the changelog');
    await turn(client, sessionId, "@writer no, that's not what I asked: use bullet points");
    await turn(client, sessionId, '@tester write the tests');
    await turn(client, sessionId, '@tester no, wrong framework');
    await turn(client, sessionId, '@plain say something');
    await turn(client, sessionId, "@plain no, that's wrong");
    await turn(client, sessionId, '@commander thanks');

    const signals = (agent: string) =>
      existsSync(join(dataDir, 'agents', agent, 'evolution', 'signals.jsonl'))
        ? readFileSync(join(dataDir, 'agents', agent, 'evolution', 'signals.jsonl'), 'utf8')
            .trim()
            .split('\n')
            .map((l) => JSON.parse(l))
        : [];
    expect(signals('writer')).toEqual([
      expect.objectContaining({ kind: 'user_correction', weight: 5, sessionId, detail: expect.stringContaining('use bullet points') }),
    ]);
    expect(signals('tester')).toHaveLength(1);
    // Agents without evolve, and the commander, record nothing.
    expect(existsSync(join(dataDir, 'agents', 'plain'))).toBe(false);
    expect(existsSync(join(dataDir, 'agents', 'commander'))).toBe(false);
    expect(bed.fake.requests.some(isReflection)).toBe(false);

    // The interval passes: both evolving agents are due; the tester's reflection fails, the writer's still applies.
    await clock.advance(HOUR);
    const evolved = (await client.waitFor((e) => e.type === 'evolution' && e.agent === 'writer')) as Extract<SessionEvent, { type: 'evolution' }>;
    const failed = (await client.waitFor((e) => e.type === 'evolution' && e.agent === 'tester')) as Extract<SessionEvent, { type: 'evolution' }>;
    expect(evolved).toMatchObject({
      status: 'applied',
      trigger: 'scheduled',
      model: 'openai/fake-memory',
      changes: [
        { kind: 'skill_created', name: 'bullet-points' },
        { kind: 'profile_updated', name: 'profile' },
      ],
    });
    expect(failed).toMatchObject({ status: 'failed', reason: expect.stringContaining('answered with text instead of calling record_reflection') });
    const reflections = bed.fake.requests.filter(isReflection);
    expect(reflections.map((r) => r.model).sort()).toEqual(['fake-memory', 'fake-memory']);
    expect(textOf(reflections.find((r) => textOf(r).includes('writer'))!)).toContain('use bullet points');
    const skillFile = join(dataDir, 'agents', 'writer', 'skills', 'bullet-points', 'SKILL.md');
    expect(readFileSync(skillFile, 'utf8')).toContain('LEARNED-BODY');
    expect(readFileSync(skillFile, 'utf8')).not.toContain('command:');
    expect(existsSync(join(dataDir, 'agents', 'writer', 'skills', 'second-skill'))).toBe(false);
    const { records } = await client.ok('agents:evolution', { name: 'writer' });
    expect(records).toEqual([
      expect.objectContaining({
        id: evolved.id,
        status: 'applied',
        signals: 1,
        score: 5,
        tokens: 1020,
        notes: [expect.stringContaining('"second-skill" left out')],
      }),
    ]);

    // The writer's next turn has its skill and profile; the plain agent's and the commander's do not.
    const seen = bed.fake.requests.length;
    await turn(client, sessionId, '@writer the next changelog');
    await turn(client, sessionId, '@plain again');
    await turn(client, sessionId, '@commander and you?');
    const after = bed.fake.requests.slice(seen);
    const writerSystem = systemOf(after.find((r) => systemOf(r).includes('ROLE-WRITER'))!);
    expect(writerSystem).toContain('- bullet-points: Changelogs as bullet points.');
    expect(writerSystem).toContain('Lesson: use bullet points');
    for (const req of after.filter((r) => !systemOf(r).includes('ROLE-WRITER'))) expect(systemOf(req)).not.toContain('bullet-points');
    // A new correction; the next tick reflects the writer again (patching its skill) and retries the
    // tester, whose failed reflection left its signals pending.
    await turn(client, sessionId, '@writer no, wrong again');
    const seenEvents = client.events.length;
    await clock.advance(HOUR);
    const second = (await client.waitFor((e) => e.type === 'evolution' && e.agent === 'writer' && client.events.indexOf(e) >= seenEvents)) as Extract<
      SessionEvent,
      { type: 'evolution' }
    >;
    await client.waitFor((e) => e.type === 'evolution' && e.agent === 'tester' && client.events.indexOf(e) >= seenEvents);
    expect(second).toMatchObject({ status: 'applied', changes: [{ kind: 'skill_patched', name: 'bullet-points' }] });
    expect(bed.fake.requests.filter(isReflection)).toHaveLength(4);

    // Revert: the older one is refused while the newer one's change stands; newest first, each puts its files back.
    const blocked = await client.request('agents:evolution', { name: 'writer', revert: evolved.id });
    expect(blocked).toMatchObject({ ok: false, error: { code: 'conflict', message: expect.stringContaining(`revert ${second.id} first`) } });
    await client.ok('agents:evolution', { name: 'writer', revert: second.id, sessionId });
    expect(readFileSync(skillFile, 'utf8')).toContain(`reflection: ${evolved.id}`);
    const reverted = await client.ok('agents:evolution', { name: 'writer', revert: evolved.id, sessionId });
    expect(reverted.reverted).toMatchObject({ id: evolved.id, revertedBy: 'alice' });
    expect(existsSync(join(dataDir, 'agents', 'writer', 'skills', 'bullet-points'))).toBe(false);
    expect(existsSync(join(dataDir, 'agents', 'writer', 'profile.md'))).toBe(false);
    await client.waitFor((e) => e.type === 'evolution' && e.status === 'reverted' && e.id === evolved.id);
    const again = await client.request('agents:evolution', { name: 'writer', revert: evolved.id });
    expect(again).toMatchObject({ ok: false, error: { code: 'conflict', message: expect.stringContaining('already reverted') } });
  });

  it('--run-now reflects at once (people and tests), and is refused for an agent without evolve', async () => {
    const { dataDir, client, sessionId } = await setup();
    bed.fake.setHandler((req): FakeReply => {
      if (isReflection(req)) return reflectionReply([{ name: 'tidy-tests', description: 'Keep tests tidy.', body: 'One assertion idea per test.' }]);
      return { text: 'ok' };
    });
    const { ran, records } = await client.ok('agents:evolution', { name: 'tester', runNow: true, sessionId });
    expect(ran).toMatchObject({
      trigger: 'run_now',
      status: 'applied',
      signals: 0,
      changes: expect.arrayContaining([{ kind: 'skill_created', name: 'tidy-tests' }]),
    });
    expect(records).toHaveLength(1);
    await client.waitFor((e) => e.type === 'evolution' && e.agent === 'tester' && e.trigger === 'run_now');
    expect(existsSync(join(dataDir, 'agents', 'tester', 'skills', 'tidy-tests', 'SKILL.md'))).toBe(true);
    const refused = await client.request('agents:evolution', { name: 'plain', runNow: true, sessionId });
    expect(refused).toMatchObject({ ok: false, error: { code: 'bad_request', message: expect.stringContaining('does not say evolve: true') } });
    const unknown = await client.request('agents:evolution', { name: 'nobody', runNow: true, sessionId });
    expect(unknown).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(existsSync(join(dataDir, 'agents', 'plain'))).toBe(false);
  });
});
