import { once } from 'node:events';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeTempDir, type TempDir } from '@tandem/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AgentRegistry } from './agent-registry.js';
import { agentRoots } from './agent-roots.js';
import type { AgentDiscovery } from './discover-agents.js';

const agentFile = (name: string, description: string) => `---\nname: ${name}\ndescription: ${description}\n---\nYou are ${name}.\n`;

/** Waits on the registry's change events (never on time) until what it holds satisfies `ok`. */
async function changeUntil(registry: AgentRegistry, ok: (d: AgentDiscovery) => boolean): Promise<AgentDiscovery> {
  for (;;) {
    const now = registry.current();
    if (ok(now)) return now;
    await once(registry, 'change');
  }
}

describe('AgentRegistry', () => {
  let tmp: TempDir;
  let workspace: string;
  let dataDir: string;
  let registry: AgentRegistry;
  beforeEach(async () => {
    tmp = await makeTempDir('tandem-agent-registry-');
    workspace = join(tmp.path, 'ws');
    dataDir = join(tmp.path, 'data');
    await mkdir(workspace, { recursive: true });
    await mkdir(join(dataDir, 'agents'), { recursive: true });
    registry = new AgentRegistry(agentRoots({ workspace, dataDir }));
  });
  afterEach(async () => {
    registry.close();
    await tmp.cleanup();
  });

  it('current() re-reads a changed file without any watcher (mtime/size signature)', async () => {
    const file = join(dataDir, 'agents', 'helper.md');
    await writeFile(file, agentFile('helper', 'first'));
    expect(registry.get('helper')?.description).toBe('first');
    const before = registry.current();
    expect(registry.current()).toBe(before); // unchanged files: the same discovery, no re-read
    await writeFile(file, agentFile('helper', 'second, longer'));
    expect(registry.get('helper')?.description).toBe('second, longer');
  });

  it('emits change when a file is edited, added, removed, and when the project root appears later', async () => {
    const file = join(dataDir, 'agents', 'helper.md');
    await writeFile(file, agentFile('helper', 'first'));
    registry.watch();
    expect(registry.get('helper')?.description).toBe('first');

    const edited = once(registry, 'change');
    await writeFile(file, agentFile('helper', 'edited description'));
    await edited;
    await changeUntil(registry, (d) => d.agents.some((a) => a.description === 'edited description'));

    // .tandem/agents does not exist yet: its nearest parent is watched.
    await mkdir(join(workspace, '.tandem', 'agents'), { recursive: true });
    await writeFile(join(workspace, '.tandem', 'agents', 'helper.md'), agentFile('helper', 'project helper'));
    const found = await changeUntil(registry, (d) => d.agents.some((a) => a.description === 'project helper'));
    expect(found.entries.filter((e) => e.status === 'shadowed').map((e) => e.scope)).toEqual(['user']);

    await rm(join(workspace, '.tandem', 'agents', 'helper.md'));
    await changeUntil(registry, (d) => d.agents.length === 1 && d.agents[0]?.scope === 'user');
  });
});
