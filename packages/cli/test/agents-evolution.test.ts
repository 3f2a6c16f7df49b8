import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTandem } from './cli-runner.js';
import { type ServerFixture, startServerFixture } from './server-fixture.js';

// `tandem agents evolution NAME [--run-now | --revert ID]` against a real server whose memory
// chain answers from the scripted fake model.

let fixture: ServerFixture;

beforeAll(async () => {
  fixture = await startServerFixture('evolution');
  const agents = join(fixture.project.path, '.tandem', 'agents');
  mkdirSync(agents, { recursive: true });
  writeFileSync(join(agents, 'writer.md'), '---\nname: writer\ndescription: Writes changelogs.\nevolve: true\n---\nYou write changelogs.\n');
  writeFileSync(join(agents, 'plain.md'), '---\nname: plain\ndescription: Does not learn.\n---\nYou answer.\n');
  fixture.fake.setHandler((req) => {
    const system = JSON.stringify(req.body?.messages?.[0] ?? '');
    if (!system.includes('You are the reflection step')) return { text: 'ok' };
    return {
      toolCalls: [
        {
          name: 'record_reflection',
          args: { summary: 'Bullets win.', skills: [{ action: 'create', name: 'bullets', description: 'Use bullets.', body: 'Write bullets.' }] },
        },
      ],
    };
  });
});
afterAll(async () => {
  await fixture?.close();
});

const args = (...rest: string[]) => [...rest, '--cwd', fixture.project.path, '--data-dir', fixture.dataDir.path];
const remote = () => ['--url', fixture.server.url, '--token', fixture.tokens.control];

describe('tandem agents evolution', () => {
  it('--run-now reflects at once, the listing shows it, --revert puts it back; an agent without evolve is refused', async () => {
    const empty = await runTandem(['agents', 'evolution', 'writer', ...args()]);
    expect(empty).toMatchObject({ code: 0, stderr: '' });
    expect(empty.stdout).toMatch(/^no reflections of writer yet/);

    const ran = await runTandem(['agents', 'evolution', 'writer', '--run-now', ...args(), ...remote()]);
    expect(ran.stderr).toBe('');
    expect(ran.code).toBe(0);
    const id = /^reflection (r-\S+) of writer: applied \(openai\/[^,]+, \d+ tokens\); 0 signal\(s\), score 0$/m.exec(ran.stdout)?.[1];
    expect(id).toBeDefined();
    expect(ran.stdout).toContain('+ skill created: bullets');
    expect(ran.stdout).toContain(`undo with: tandem agents evolution writer --revert ${id}`);
    const skill = join(fixture.dataDir.path, 'agents', 'writer', 'skills', 'bullets', 'SKILL.md');
    expect(existsSync(skill)).toBe(true);

    const listed = await runTandem(['agents', 'evolution', 'writer', ...args()]);
    expect(listed.stdout.split('\n')[0]).toMatch(/^ID\s+AT\s+TRIGGER\s+STATUS\s+CHANGES\s+SUMMARY$/);
    expect(listed.stdout).toMatch(new RegExp(`^${id}\\s+\\S+Z\\s+run_now\\s+applied\\s+skill created bullets\\s+Bullets win\\.$`, 'm'));

    const reverted = await runTandem(['agents', 'evolution', 'writer', '--revert', id!, ...args(), ...remote()]);
    expect(reverted).toMatchObject({ code: 0, stdout: `reverted ${id}: its changes to writer are put back\n` });
    expect(existsSync(skill)).toBe(false);
    expect((await runTandem(['agents', 'evolution', 'writer', '--json', ...args()])).stdout).toContain('"revertedAt"');

    const refused = await runTandem(['agents', 'evolution', 'plain', '--run-now', ...args(), ...remote()]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('agent plain does not say evolve: true');
  }, 180_000);
});
