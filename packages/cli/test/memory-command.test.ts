import { appendFile, chmod, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TandemClient } from '@tandem/tui';
import { memoryDirFor } from '@tandem/server';
import { runTandem } from './cli-runner.js';
import { startServerFixture, type ServerFixture } from './server-fixture.js';

// `tandem memory show | edit | export` against a real server and data directory.

let fixture: ServerFixture;

beforeAll(async () => {
  fixture = await startServerFixture('memory-cli');
}, 240_000);

afterAll(async () => {
  await fixture?.close();
});

const connection = () => ['--url', fixture.server.url, '--token', fixture.tokens.view, '--data-dir', fixture.dataDir.path];

async function serverMemory(): Promise<{ memory: string; history: string }> {
  const client = new TandemClient(fixture.server.url, { token: fixture.tokens.view, name: 'probe' });
  try {
    await client.ready();
    return await client.request('memory:show', { sessionId: fixture.sessionId });
  } finally {
    client.close();
  }
}

describe('tandem memory', () => {
  it("edit opens MEMORY.md of the session's workspace in $EDITOR, where the server reads it, and says how it changed", async () => {
    const editor = join(fixture.dataDir.path, 'fake-editor.sh');
    await writeFile(editor, '#!/bin/sh\nprintf -- "- the build uses %s\\n" "$TANDEM_TEST_WORD" >> "$1"\n');
    await chmod(editor, 0o755);
    const env = { ...process.env, EDITOR: editor, VISUAL: '', TANDEM_TEST_WORD: 'pnpm' };
    const first = await runTandem(['memory', 'edit', '--session', fixture.sessionId.slice(0, 8), ...connection()], env);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^editing .*\/memory\/[0-9a-f]{16}\/MEMORY\.md \(memory of .*\) with /);
    expect(first.stdout).toContain('MEMORY.md: created, 22 bytes');
    expect((await serverMemory()).memory).toBe('- the build uses pnpm\n');

    const second = await runTandem(['memory', 'edit', '--session', fixture.sessionId, ...connection()], { ...env, TANDEM_TEST_WORD: 'turbo' });
    expect(second.stdout).toContain('MEMORY.md: 22 → 45 bytes (+23)');
    expect((await serverMemory()).memory).toBe('- the build uses pnpm\n- the build uses turbo\n');
  }, 240_000);

  it('edit reports an editor that fails', async () => {
    const result = await runTandem(['memory', 'edit', '--workspace', fixture.project.path, '--data-dir', fixture.dataDir.path], {
      ...process.env,
      EDITOR: 'false',
      VISUAL: '',
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('the editor (false) exited with code 1');
  }, 240_000);

  it('export writes markdown to stdout and JSON atomically to --out', async () => {
    // A recall item as the server's item store writes it (one JSON record per line).
    const dir = await memoryDirFor(fixture.dataDir.path, fixture.project.path);
    const item = { id: 'note-1', kind: 'note', text: 'deploys go through tools/ship.sh', createdAt: '2026-12-01T09:00:00.000Z', source: 'test' };
    await appendFile(join(dir, 'items.jsonl'), `${JSON.stringify({ op: 'add', item })}\n`);

    const markdown = await runTandem(['memory', 'export', '--session', fixture.sessionId, ...connection()]);
    expect(markdown.code).toBe(0);
    expect(markdown.stdout).toMatch(
      /^# Tandem memory — \/.*\n\n_exported \S+ from session \S+_\n\n## MEMORY\.md\n\n- the build uses pnpm\n- the build uses turbo\n\n## User profile\n\n_none_\n\n## Agent notes\n\n- deploys go through tools\/ship\.sh _\(note-1, 2026-12-01\)_\n\n## HISTORY\.md\n\n_empty_\n$/,
    );

    const file = join(fixture.dataDir.path, 'memory-export.json');
    const json = await runTandem(['memory', 'export', fixture.sessionId.slice(0, 8), '--format', 'json', '--out', file, ...connection()]);
    expect(json.stderr).toBe('');
    expect(json.stdout).toMatch(/^wrote .*memory-export\.json \(\d+ bytes, json\)\n$/);
    const parsed = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
    expect(parsed).toMatchObject({
      sessionId: fixture.sessionId,
      memory: '- the build uses pnpm\n- the build uses turbo\n',
      history: '',
      items: [{ id: 'note-1', kind: 'note', text: 'deploys go through tools/ship.sh' }],
    });
    expect(typeof parsed.workspace).toBe('string');
  }, 240_000);

  it('show stays the default, and bad input is refused with a message', async () => {
    const shown = await runTandem(['memory', 'show', '--session', fixture.sessionId, ...connection()]);
    expect(shown.stdout).toMatch(/^# MEMORY\.md\n\n- the build uses pnpm\n/);
    const format = await runTandem(['memory', 'export', '--format', 'yaml', ...connection()]);
    expect(format.code).not.toBe(0);
    expect(format.stderr).toContain('expected markdown or json, got "yaml"');
    const action = await runTandem(['memory', 'frobnicate', 'abc', ...connection()]);
    expect(action.code).not.toBe(0);
    expect(action.stderr).toContain('unknown memory action "frobnicate"');
  }, 240_000);
});
