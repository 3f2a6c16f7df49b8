import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeTempDir, type TempDir } from '@tandem/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { agentRoots } from './agent-roots.js';
import { discoverAgents } from './discover-agents.js';

const agentFile = (name: string, description: string, extra = '') => `---\nname: ${name}\ndescription: ${description}\n${extra}---\nYou are ${name}.\n`;

describe('discoverAgents', () => {
  let tmp: TempDir;
  let workspace: string;
  let dataDir: string;
  beforeEach(async () => {
    tmp = await makeTempDir('tandem-agents-');
    workspace = join(tmp.path, 'ws');
    dataDir = join(tmp.path, 'data');
    await mkdir(join(workspace, '.tandem', 'agents'), { recursive: true });
    await mkdir(join(dataDir, 'agents'), { recursive: true });
  });
  afterEach(() => tmp.cleanup());

  it('reads <workspace>/.tandem/agents and <data-dir>/agents; the project wins on a name clash', async () => {
    const project = join(workspace, '.tandem', 'agents');
    const user = join(dataDir, 'agents');
    await writeFile(join(project, 'reviewer.md'), agentFile('reviewer', 'project reviewer'));
    await writeFile(join(user, 'reviewer.md'), agentFile('reviewer', 'user reviewer'));
    await writeFile(join(user, 'writer.md'), agentFile('writer', 'writes docs', 'interactive: true\n'));
    await writeFile(join(user, 'notes.txt'), 'not an agent');
    const found = discoverAgents(agentRoots({ workspace, dataDir }));
    expect(found.agents.map((a) => [a.name, a.description, a.scope])).toEqual([
      ['reviewer', 'project reviewer', 'project'],
      ['writer', 'writes docs', 'user'],
    ]);
    const shadowed = found.entries.find((e) => e.status === 'shadowed');
    expect(shadowed).toMatchObject({ name: 'reviewer', scope: 'user', file: join(user, 'reviewer.md') });
    expect(shadowed?.error?.message).toContain(join(project, 'reviewer.md'));
  });

  it('lists an invalid file with its file and field, and never offers it', async () => {
    const bad = join(workspace, '.tandem', 'agents', 'broken.md');
    await writeFile(bad, '---\nname: broken\ndescription: d\ninteractive: maybe\n---\np');
    const found = discoverAgents(agentRoots({ workspace, dataDir }));
    expect(found.agents).toEqual([]);
    expect(found.entries).toEqual([
      expect.objectContaining({ name: 'broken', status: 'invalid', scope: 'project', error: expect.objectContaining({ file: bad, field: 'interactive' }) }),
    ]);
  });

  it('missing roots are simply empty', async () => {
    await rm(join(dataDir, 'agents'), { recursive: true });
    await rm(join(workspace, '.tandem'), { recursive: true });
    expect(discoverAgents(agentRoots({ workspace, dataDir }))).toEqual({ agents: [], entries: [] });
  });
});
