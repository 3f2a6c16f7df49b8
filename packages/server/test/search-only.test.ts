import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { systemOf, toolNames } from './mcp-harness.js';
import { fakeModelBed, startTestServer } from './server-harness.js';

/** The "globe" toggle: a search-only session offers web_search alone; turning it off restores every tool. */
const bed = fakeModelBed();

describe('search-only sessions', () => {
  it('offer only web_search while on, everyone sees the switch, and off restores the tools', async () => {
    bed.server = await startTestServer({ env: bed.env() });
    // A defined agent: the commander's prompt lists it, except in a search-only turn.
    const agents = join(bed.server.workspace.path, '.tandem', 'agents');
    mkdirSync(agents, { recursive: true });
    writeFileSync(join(agents, 'reviewer.md'), '---\nname: reviewer\ndescription: Reviews diffs.\n---\nYou review.\n');
    const alice = await bed.server.connect('alice');
    const bob = await bed.server.connect('bob');
    const { session } = await alice.ok('session:create', { searchOnly: true });
    expect(session.searchOnly).toBe(true);
    const sessionId = session.id;
    await alice.ok('session:attach', { sessionId, role: 'driver' });
    await bob.ok('session:attach', { sessionId, role: 'viewer' });
    bed.fake.enqueue({ text: 'Searched.' }, { text: 'Full agent.' });
    await alice.ok('session:send', { sessionId, text: 'what is new?' });
    const first = await alice.waitFor((e) => e.type === 'turn_done');
    expect(toolNames(bed.fake.requests[0]!)).toEqual(['web_search']);
    expect(systemOf(bed.fake.requests[0]!)).toContain('Your tools: web_search.');
    expect(systemOf(bed.fake.requests[0]!)).not.toContain('Agents you can delegate to');

    const { session: off } = await alice.ok('session:configure', { sessionId, searchOnly: false });
    expect(off.searchOnly).toBeUndefined();
    const seen = await bob.waitFor((e) => e.type === 'session_configured');
    expect(seen).toMatchObject({ searchOnly: false, by: 'alice' });
    await alice.ok('session:send', { sessionId, text: 'now do it all' });
    await alice.waitFor((e) => e.type === 'turn_done' && e.seq > first.seq);
    const tools = toolNames(bed.fake.requests[1]!);
    expect(tools).toContain('web_search');
    expect(tools).toContain('run_command');
    expect(tools.length).toBeGreaterThan(10);
    expect(systemOf(bed.fake.requests[1]!)).toContain('- reviewer: Reviews diffs.');
    expect(systemOf(bed.fake.requests[1]!)).toMatch(/Your tools: read_file, [^\n]*run_command/);
  });
});
