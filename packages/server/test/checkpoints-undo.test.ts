import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SessionEvent } from '@tandem/shared';
import { BWRAP, bwrapSkipNotice } from '../src/os-sandbox/sandbox.test-helper.js';
import { git, gitCommitAll, gitInit } from './git-workspace.js';
import { fakeModelBed, startTestServer, TOKENS, type TestClient } from './server-harness.js';

/**
 * Checkpoints and undo through real turns: the scripted model changes files with file tools and
 * with commands (in real bubblewrap); undo puts every byte back, leaves ignored files and the
 * user's .git alone, reports conflicts, and every client sees it.
 */
const bed = fakeModelBed({ fakePer: 'test' });

/** Every file under `dir` (but .git) with a hash of its bytes and its mode. */
function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const full = join(d, entry.name);
      if (entry.name === '.git') continue;
      if (entry.isDirectory()) walk(full);
      else out[relative(dir, full)] = `${createHash('sha1').update(readFileSync(full)).digest('hex')} ${(statSync(full).mode & 0o777).toString(8)}`;
    }
  };
  walk(dir);
  return out;
}

/** The user's repository as git and the disk see it: HEAD, the index's bytes, every file under .git. */
function userGit(ws: string) {
  const files: Record<string, string> = {};
  const walk = (d: string) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const full = join(d, entry.name);
      if (entry.isDirectory()) walk(full);
      else files[relative(ws, full)] = createHash('sha1').update(readFileSync(full)).digest('hex');
    }
  };
  walk(join(ws, '.git'));
  return { head: git(ws, 'rev-parse', 'HEAD'), status: git(ws, 'status', '--porcelain'), files };
}

async function repoWorkspace() {
  bed.server = await startTestServer({ env: bed.env() });
  const ws = bed.server.workspace.path;
  gitInit(ws);
  writeFileSync(join(ws, 'a.txt'), 'alpha\n');
  writeFileSync(join(ws, 'b.txt'), 'bravo\n');
  writeFileSync(join(ws, 'script.sh'), '#!/bin/sh\necho hi\n', { mode: 0o644 });
  writeFileSync(join(ws, '.gitignore'), 'ignored.log\n');
  writeFileSync(join(ws, 'ignored.log'), 'log before\n');
  gitCommitAll(ws, 'first');
  return ws;
}

async function driver(name = 'alice'): Promise<{ client: TestClient; sessionId: string }> {
  const client = await bed.server!.connect(name);
  const { session } = await client.ok('session:create', {});
  await client.ok('session:attach', { sessionId: session.id, role: 'driver' });
  client.approveAll(session.id);
  return { client, sessionId: session.id };
}

/** One turn; when it changes files, waits for its `checkpoint` event too (the turn's end state is kept then). */
async function turn(
  client: TestClient,
  sessionId: string,
  toolCalls: Array<{ name: string; args: Record<string, unknown> }>,
  text = 'go',
  changes = true,
): Promise<SessionEvent[]> {
  const mark = client.events.at(-1)?.seq ?? 0;
  bed.fake.enqueue(...(toolCalls.length > 0 ? [{ toolCalls }] : []), { text: `Done: ${text}` });
  await client.ok('session:send', { sessionId, text });
  await client.waitFor((e) => e.type === 'turn_done' && e.seq > mark);
  if (changes && toolCalls.length > 0) await client.waitFor((e) => e.type === 'checkpoint' && e.seq > mark);
  return client.events.filter((e) => e.seq > mark);
}

const command = (text: string) => ({ name: 'run_command', args: { command: text } });

if (!BWRAP.ok) bwrapSkipNotice('checkpoints and undo through a real turn');

describe.skipIf(!BWRAP.ok)('checkpoints and undo through real turns', () => {
  it('undoes edits, creations and deletions by file tools and by commands, byte for byte; ignored files and the user’s .git stay as they are', async () => {
    const ws = await repoWorkspace();
    const { client, sessionId } = await driver();
    const viewer = await bed.server!.connect('bob', TOKENS.view);
    await viewer.ok('session:attach', { sessionId, role: 'viewer' });
    const before = tree(ws);
    const gitBefore = userGit(ws);

    const events = await turn(
      client,
      sessionId,
      [
        { name: 'read_file', args: { path: 'a.txt' } },
        { name: 'write_file', args: { path: 'a.txt', content: 'alpha changed by write_file\n' } },
        { name: 'write_file', args: { path: 'docs/new.md', content: '# created\n' } },
        command(
          "rm b.txt && echo 'log changed' > ignored.log && mkdir -p sub/dir && printf 'x\\000y' > sub/dir/bin.dat && chmod +x script.sh && echo more >> a.txt && git status --short >/dev/null",
        ),
      ],
      'change things',
    );
    const checkpoint = events.find((e) => e.type === 'checkpoint');
    expect(checkpoint?.type === 'checkpoint' && checkpoint.files).toEqual(
      expect.arrayContaining([
        { path: 'a.txt', status: 'modified' },
        { path: 'a.txt.bak', status: 'added' },
        { path: 'docs/new.md', status: 'added' },
        { path: 'b.txt', status: 'deleted' },
        { path: 'sub/dir/bin.dat', status: 'added' },
        { path: 'script.sh', status: 'modified' },
      ]),
    );
    expect(checkpoint?.type === 'checkpoint' && checkpoint.files.map((f) => f.path)).not.toContain('ignored.log');
    expect(readFileSync(join(ws, 'ignored.log'), 'utf8')).toBe('log changed\n');

    const diff = await client.ok('session:diff', { sessionId });
    expect(diff.diff).toContain('+alpha changed by write_file');
    expect(diff.diff).toContain('-bravo');
    expect(diff.files).toContainEqual({ path: 'b.txt', status: 'deleted' });

    const undone = await client.ok('session:undo', { sessionId });
    expect(undone.conflicts).toEqual([]);
    expect(undone.files).toEqual(['a.txt', 'a.txt.bak', 'b.txt', 'docs/new.md', 'script.sh', 'sub/dir/bin.dat']);
    expect(tree(ws)).toEqual({ ...before, 'ignored.log': tree(ws)['ignored.log'] });
    expect(readFileSync(join(ws, 'ignored.log'), 'utf8')).toBe('log changed\n');
    expect(existsSync(join(ws, 'sub'))).toBe(false);
    expect(existsSync(join(ws, 'docs'))).toBe(false);
    expect(userGit(ws)).toEqual(gitBefore);

    // Everyone attached saw it, with who did it.
    const seen = await viewer.waitFor((e) => e.type === 'undo');
    expect(seen.type === 'undo' && [seen.by, seen.turns, seen.files.length]).toEqual(['alice', 1, 6]);
    // The conversation went back too: the next request holds none of the undone turn.
    await turn(client, sessionId, [], 'after the undo');
    const last = JSON.stringify(bed.fake.requests.at(-1)!.body.messages);
    expect(last).toContain('after the undo');
    expect(last).not.toContain('change things');
    expect(last).not.toContain('alpha changed by write_file');
  });

  it('leaves a file changed since by someone else alone and reports it; undoes several turns at once', async () => {
    const ws = await repoWorkspace();
    const { client, sessionId } = await driver();
    await turn(client, sessionId, [command('echo one > c.txt && echo A2 > a.txt')], 'first');
    await turn(client, sessionId, [command('echo two >> c.txt && echo B2 > b.txt')], 'second');
    writeFileSync(join(ws, 'b.txt'), 'the user edited this\n');
    const undone = await client.ok('session:undo', { sessionId, turns: 2 });
    expect(undone.conflicts).toEqual([{ path: 'b.txt', reason: expect.stringContaining('changed since') }]);
    expect(undone.files).toEqual(['a.txt', 'c.txt']);
    expect(readFileSync(join(ws, 'b.txt'), 'utf8')).toBe('the user edited this\n');
    expect(readFileSync(join(ws, 'a.txt'), 'utf8')).toBe('alpha\n');
    expect(existsSync(join(ws, 'c.txt'))).toBe(false);
    const more = await client.request('session:undo', { sessionId });
    expect(!more.ok && more.error.code).toBe('conflict');
  });

  it('a viewer cannot undo; a cancelled turn’s files can be put back', async () => {
    const ws = await repoWorkspace();
    const { client, sessionId } = await driver();
    const viewer = await bed.server!.connect('bob', TOKENS.view);
    await viewer.ok('session:attach', { sessionId, role: 'viewer' });
    const refused = await viewer.request('session:undo', { sessionId });
    expect(!refused.ok && refused.error.code).toMatch(/forbidden|unauthorized/);

    // A turn undone before (the shadow index is then behind the disk).
    await turn(client, sessionId, [command('echo "console.log(2);" > a.txt && echo fresh > new.ts')], 'edit');
    await client.ok('session:undo', { sessionId });
    // The command writes, then waits to be cancelled (on the state, not on time).
    const mark = client.events.at(-1)?.seq ?? 0;
    bed.fake.enqueue({ toolCalls: [command('echo cancelled-edit > a.txt && echo started && while true; do read -r _ || true; done')] }, { text: 'never' });
    await client.ok('session:send', { sessionId, text: 'long one' });
    await client.waitFor((e) => e.type === 'command_output' && e.seq > mark && e.data.includes('started'));
    await client.ok('session:cancel', { sessionId });
    const checkpoint = await client.waitFor((e) => e.type === 'checkpoint' && e.seq > mark);
    expect(checkpoint.type === 'checkpoint' && checkpoint.cancelled).toBe(true);
    expect(readFileSync(join(ws, 'a.txt'), 'utf8')).toBe('cancelled-edit\n');
    const undone = await client.ok('session:undo', { sessionId });
    expect(undone.files).toEqual(['a.txt']);
    expect(readFileSync(join(ws, 'a.txt'), 'utf8')).toBe('alpha\n');
  });

  it('two sessions at once on one workspace: each undo takes back only its own turn', async () => {
    const ws = await repoWorkspace();
    mkdirSync(join(ws, 'shared'));
    const a = await driver('alice');
    const b = await driver('bob');
    // A's command runs until B's file exists: B's write lands inside A's command. (One model queue
    // serves both sessions: A's answer is queued only once B's turn is over.)
    const mark = a.client.events.at(-1)?.seq ?? 0;
    bed.fake.enqueue({ toolCalls: [command('echo from-a > shared/a-file && echo started && until [ -e shared/b-file ]; do sleep 0.05; done; echo seen-b')] });
    await a.client.ok('session:send', { sessionId: a.sessionId, text: 'a' });
    await a.client.waitFor((e) => e.type === 'command_output' && e.seq > mark && e.data.includes('started'));
    await turn(b.client, b.sessionId, [{ name: 'write_file', args: { path: 'shared/b-file', content: 'from b\n' } }], 'b');
    bed.fake.enqueue({ text: 'A is done' });
    await a.client.waitFor((e) => e.type === 'checkpoint' && e.seq > mark);
    const undoA = await a.client.ok('session:undo', { sessionId: a.sessionId });
    expect(undoA.files).toEqual(['shared/a-file']);
    expect(readFileSync(join(ws, 'shared', 'b-file'), 'utf8')).toBe('from b\n');
    const undoB = await b.client.ok('session:undo', { sessionId: b.sessionId });
    expect(undoB.files).toEqual(['shared/b-file']);
    expect(existsSync(join(ws, 'shared', 'b-file'))).toBe(false);
  });

  it('checkpoints are removed with the session and pruned to the configured number of turns', async () => {
    await bed.server?.stop();
    bed.server = await startTestServer({ env: bed.env(), settings: { checkpoints: { keepTurns: 2 } } });
    const ws = bed.server.workspace.path;
    const { client, sessionId } = await driver();
    for (const n of [1, 2, 3]) await turn(client, sessionId, [command(`echo ${n} > n.txt`)], `turn ${n}`);
    expect((await client.ok('session:checkpoints', { sessionId })).turns).toHaveLength(2);
    const tooFar = await client.request('session:undo', { sessionId, turns: 3 });
    expect(!tooFar.ok && tooFar.error.message).toContain('only the last 2 turns can be undone');
    const shadow = join(bed.server.dataDir, 'checkpoints');
    const refsOf = () =>
      execFileSync('git', [`--git-dir=${join(shadow, readdirSync(shadow)[0]!)}`, 'for-each-ref', '--format=%(refname)'], { encoding: 'utf8' });
    expect(refsOf()).toContain(`refs/tandem/${sessionId}/`);
    await client.ok('session:delete', { sessionId });
    expect(refsOf()).not.toContain(sessionId);
    expect(readFileSync(join(ws, 'n.txt'), 'utf8')).toBe('3\n');
  });
});
