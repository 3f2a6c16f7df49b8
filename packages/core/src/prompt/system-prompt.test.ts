import { afterEach, describe, expect, it } from 'vitest';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeTempDir, type TempDir } from '@tandem/testkit';
import { buildSystemPrompt } from './system-prompt.js';
import { AGENTS_MD_MAX_BYTES, loadAgentsMd } from './agents-md.js';

let dir: TempDir | undefined;
afterEach(async () => {
  await dir?.cleanup();
  dir = undefined;
});

describe('buildSystemPrompt', () => {
  const prompt = buildSystemPrompt({
    cwd: '/home/ana/project',
    tools: [{ name: 'read_file' }, { name: 'edit_file' }, { name: 'run_command' }],
    now: new Date('2026-03-04T10:00:00Z'),
  });

  it('states the behaviour rules of requirements A12 in plain sentences', () => {
    expect(prompt).toMatch(/plan of one to three lines/);
    expect(prompt).toMatch(/one short summary/);
    expect(prompt).toMatch(/Do not narrate each tool call/);
    expect(prompt).toMatch(/existing file, use edit_file\. Use write_file only to create a new file or to replace a file wholly/);
    expect(prompt).toMatch(/depend on each other with &&/);
    expect(prompt).toMatch(/Before a destructive command.*one line saying what it will do and why/);
    expect(prompt).toMatch(/Errors come back to you as tool results/);
  });

  it('names the workspace, the date and the tools', () => {
    expect(prompt).toContain('The workspace is /home/ana/project.');
    expect(prompt).toContain('Today is 2026-03-04.');
    expect(prompt).toContain('Your tools: read_file, edit_file, run_command.');
    expect(prompt).not.toContain('AGENTS.md');
  });

  it('names the tools that wait for setting up apart from the offered ones, with how to set them up', () => {
    const waiting = buildSystemPrompt({
      cwd: '/w',
      tools: [{ name: 'read_file' }],
      notSetUp: [
        { names: ['get_calendar_events'], how: 'add "calendars" to config.json' },
        { names: ['whatsapp_send', 'whatsapp_latest'], how: 'add "whatsapp" to config.json' },
      ],
    });
    expect(waiting).toContain('Your tools: read_file.');
    expect(waiting).toContain(
      'Not set up here, so not offered (if the user asks for one, tell them how to set it up): get_calendar_events: add "calendars" to config.json; whatsapp_send, whatsapp_latest: add "whatsapp" to config.json.',
    );
    expect(prompt).not.toContain('Not set up');
  });

  it('appends AGENTS.md when given', () => {
    const withAgents = buildSystemPrompt({ cwd: '/w', tools: [], agentsMd: 'Use pnpm, never npm.\n' });
    expect(withAgents).toMatch(/AGENTS\.md[^\n]*\n\nUse pnpm, never npm\.$/);
    expect(withAgents).toContain('You have no tools');
  });
});

describe('loadAgentsMd', () => {
  it('returns undefined when the workspace has no AGENTS.md', async () => {
    dir = await makeTempDir('agents-');
    expect(await loadAgentsMd(dir.path)).toBeUndefined();
  });

  it('reads a small file whole', async () => {
    dir = await makeTempDir('agents-');
    await writeFile(join(dir.path, 'AGENTS.md'), '# Rules\nRun tests with pnpm test.\n');
    expect(await loadAgentsMd(dir.path)).toBe('# Rules\nRun tests with pnpm test.\n');
  });

  it('cuts a file over 32 KB and says so, without a broken character at the cut', async () => {
    dir = await makeTempDir('agents-');
    const big = 'é'.repeat(AGENTS_MD_MAX_BYTES); // 2 bytes each: 64 KB
    await writeFile(join(dir.path, 'AGENTS.md'), big);
    const loaded = (await loadAgentsMd(dir.path))!;
    const [head, note] = loaded.split('\n\n');
    expect(Buffer.byteLength(head!)).toBeLessThanOrEqual(AGENTS_MD_MAX_BYTES);
    expect(head).toBe('é'.repeat(AGENTS_MD_MAX_BYTES / 2));
    expect(note).toContain('only its first 32 KB are shown');
    expect(note).toContain(String(AGENTS_MD_MAX_BYTES * 2));
  });
});
