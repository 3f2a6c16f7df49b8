import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExternalPackages } from '../src/packages/external-packages.js';
import { cliRepo, makeRepo, skillFile, skillRepo } from '@tandem/testkit';
import { driverSession, nextEvent, systemOf } from './mcp-harness.js';
import { fakeModelBed, startTestServer, tempDir } from './server-harness.js';

/**
 * External packages in real turns: fixture repositories added with the package manager, real
 * ptys in the real OS sandbox (bubblewrap), the default guards, the real openai SDK against the
 * fake model server.
 */
const bed = fakeModelBed();

async function setup() {
  const dataDir = (await tempDir('tandem-data-')).path;
  const home = (await tempDir('tandem-home-')).path;
  const repos = (await tempDir('tandem-repos-')).path;
  const packages = new ExternalPackages(dataDir);
  return { dataDir, home, repos, packages };
}

function skill(root: string, name: string, description: string, body: string): void {
  mkdirSync(join(root, name), { recursive: true });
  writeFileSync(join(root, name, 'SKILL.md'), skillFile(name, description, body));
}

describe('external packages in a session', () => {
  it("joins the package's skills to the roots after the workspace's and before the user's, named by the package", async () => {
    const { dataDir, home, repos, packages } = await setup();
    skillRepo(join(repos, 'team-skills'), {
      'release-notes': { description: 'Package: writes release notes.', body: 'PACKAGE-BODY list the merged changes.' },
      'code-style': { description: 'Package code style (loses to the project).', body: 'never shown' },
      'shared-name': { description: 'Package shared-name (wins over the user).', body: 'package wins' },
    });
    await packages.add({ source: join(repos, 'team-skills'), cwd: repos });
    bed.server = await startTestServer({ env: bed.env(), dataDir, home });
    const ws = bed.server.workspace.path;
    skill(join(ws, '.tandem', 'skills'), 'code-style', 'Project code style.', 'project wins');
    skill(join(dataDir, 'skills'), 'shared-name', 'User shared-name (loses to the package).', 'never shown');

    const { client, sessionId } = await driverSession(bed.server);
    bed.fake.enqueue({ toolCalls: [{ name: 'read_skill', args: { name: 'release-notes' } }] }, { text: 'done' });
    await client.ok('session:send', { sessionId, text: 'write the notes' });
    const result = await nextEvent(client, 'tool_result');
    expect(result.output).toContain('PACKAGE-BODY list the merged changes.');
    expect(result.output).toContain('Skill release-notes (package team-skills)');
    await nextEvent(client, 'turn_done');
    const system = systemOf(bed.fake.requests[0]!);
    expect(system).toContain('- release-notes: Package: writes release notes.');
    expect(system).toContain('- code-style: Project code style.');
    expect(system).toContain('- shared-name: Package shared-name');

    const { skills } = await client.ok('skills:list', { sessionId });
    expect(skills.map((s) => [s.name, s.root, s.status])).toEqual([
      ['code-style', 'project .tandem/skills', 'ok'],
      ['code-style', 'package team-skills', 'shadowed'],
      ['release-notes', 'package team-skills', 'ok'],
      ['shared-name', 'package team-skills', 'ok'],
      ['shared-name', 'user <data-dir>/skills', 'shadowed'],
    ]);
    const { packages: listed } = await client.ok('packages:list', {});
    expect(listed).toEqual([expect.objectContaining({ name: 'team-skills', kind: 'skill', status: 'ok', bins: [] })]);
  });

  it("puts the packages' shims first on the PATH of commands inside the OS sandbox; a package added later counts from the next turn", async () => {
    const { dataDir, home, repos, packages } = await setup();
    bed.server = await startTestServer({ env: bed.env(), dataDir, home });
    const { client, sessionId } = await driverSession(bed.server);
    await client.ok('session:configure', { sessionId, mode: 'full-auto' });
    cliRepo(join(repos, 'greeter'), 'greet', 'hello from the package');
    await packages.add({ source: join(repos, 'greeter'), cwd: repos });

    bed.fake.enqueue({ toolCalls: [{ name: 'run_command', args: { command: 'greet world; command -v greet' } }] }, { text: 'greeted' });
    await client.ok('session:send', { sessionId, text: 'greet the world' });
    const call = await nextEvent(client, 'tool_call');
    expect(call.sandbox).toMatch(/^bubblewrap/);
    const result = await nextEvent(client, 'tool_result');
    expect(result.output).toContain('hello from the package world');
    expect(result.output).toContain(join(dataDir, 'bin', 'greet'));
    expect(result.isError).toBe(false);
  });

  it('asks once per package to install its declared dependencies, runs the install in the sandbox, and remembers the answers', async () => {
    const { dataDir, home, repos, packages } = await setup();
    makeRepo(join(repos, 'with-deps'), {
      'package.json': JSON.stringify({ name: 'with-deps', version: '1.0.0', bin: { 'deps-tool': 'cli.js' }, dependencies: { answer: 'file:./vendor/answer' } }),
      'cli.js': 'console.log("the answer is", require("answer"));\n',
      'vendor/answer/package.json': JSON.stringify({ name: 'answer', version: '1.0.0', main: 'index.js' }),
      'vendor/answer/index.js': 'module.exports = 42;\n',
    });
    makeRepo(join(repos, 'declined'), {
      'package.json': JSON.stringify({
        name: 'declined',
        version: '1.0.0',
        bin: { 'declined-tool': 'cli.js' },
        dependencies: { answer: 'file:./vendor/answer' },
      }),
      'cli.js': 'console.log(1);\n',
      'vendor/answer/package.json': JSON.stringify({ name: 'answer', version: '1.0.0' }),
    });
    await packages.add({ source: join(repos, 'with-deps'), cwd: repos });
    await packages.add({ source: join(repos, 'declined'), cwd: repos });
    bed.server = await startTestServer({ env: bed.env(), dataDir, home });
    const { client, sessionId } = await driverSession(bed.server);
    // full-auto does not answer an install for the person: it always asks.
    await client.ok('session:configure', { sessionId, mode: 'full-auto' });
    client.socket.on('session:event', (event: { type: string; requestId?: string; args?: { package?: string } }) => {
      if (event.type !== 'permission_request' || !event.requestId) return;
      const decision = event.args?.package === 'declined' ? 'deny_once' : 'allow_once';
      void client.request('permission:respond', { sessionId, requestId: event.requestId, decision });
    });

    bed.fake.enqueue({ toolCalls: [{ name: 'run_command', args: { command: 'deps-tool' } }] }, { text: 'ran it' });
    await client.ok('session:send', { sessionId, text: 'use the tool' });
    const done = await nextEvent(client, 'turn_done');
    const asked = client.events.filter((e) => e.type === 'permission_request');
    expect(asked.map((e) => [e.tool, (e.args as { package: string }).package])).toEqual([
      ['package_install', 'declined'],
      ['package_install', 'with-deps'],
    ]);
    expect(asked[1]).toMatchObject({ preview: 'npm install --omit=dev --no-audit --no-fund', scopes: [] });
    const installs = client.events.filter((e) => e.type === 'tool_result' && e.tool === 'package_install');
    expect(installs.map((e) => e.type === 'tool_result' && [e.outcome, e.isError])).toEqual([
      ['denied', true],
      ['ok', false],
    ]);
    const run = client.events.find((e) => e.type === 'tool_result' && e.tool === 'run_command');
    expect(run && run.type === 'tool_result' && run.output).toContain('the answer is 42');
    const registry = JSON.parse(readFileSync(join(dataDir, 'packages.json'), 'utf8'));
    expect(registry.packages['with-deps'].install).toMatchObject({ status: 'done' });
    expect(registry.packages.declined.install).toMatchObject({ status: 'declined' });

    // Remembered: the next turn, and a new session, ask nothing.
    bed.fake.enqueue({ text: 'again' });
    await client.ok('session:send', { sessionId, text: 'again' });
    await nextEvent(client, 'turn_done', done.seq);
    const second = await driverSession(bed.server, 'bob');
    bed.fake.enqueue({ text: 'hi' });
    await second.client.ok('session:send', { sessionId: second.sessionId, text: 'hi' });
    await nextEvent(second.client, 'turn_done');
    expect(client.events.filter((e) => e.type === 'permission_request')).toHaveLength(2);
    expect(second.client.events.filter((e) => e.type === 'permission_request')).toHaveLength(0);
    // Every install left one audit record.
    const { records } = await client.ok('audit:query', { sessionId });
    expect(records.filter((r) => r.tool === 'package_install').map((r) => [r.outcome, r.decision])).toEqual(
      expect.arrayContaining([
        ['denied', 'deny_once'],
        ['ok', 'allow_once'],
      ]),
    );
  });
});
