import { makeTempDir } from '@tandem/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTandem } from './cli-runner.js';
import { startServerFixture, type ServerFixture } from './server-fixture.js';

let fixture: ServerFixture;
beforeAll(async () => {
  fixture = await startServerFixture('admin-test');
}, 240_000);
afterAll(async () => {
  await fixture?.close();
});

// The admin commands are wired to @tandem/server's run…Command functions; these check the
// wiring end to end (flags reach them, their exit codes come back), not their own behaviour.

describe('tandem admin commands', () => {
  it('tandem permissions list / revoke work on the data directory', async () => {
    await using dir = await makeTempDir('tandem-admin-');
    const listed = await runTandem(['permissions', 'list', '--data-dir', dir.path]);
    expect(listed).toMatchObject({ code: 0 });
    expect(listed.stdout).toMatch(/no stored permissions/i);
    const revoked = await runTandem(['permissions', 'revoke', 'nope', '--data-dir', dir.path]);
    expect(revoked.code).toBe(1);
  }, 240_000);

  it('tandem audit reads the audit log and rejects a bad --limit', async () => {
    await using dir = await makeTempDir('tandem-admin-');
    const audit = await runTandem(['audit', '--data-dir', dir.path, '--limit', '5']);
    expect(audit).toMatchObject({ code: 0 });
    expect(audit.stdout).toMatch(/no audit records/);
    const bad = await runTandem(['audit', '--limit', 'many', '--data-dir', dir.path]);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('expected a positive whole number, got "many"');
  }, 240_000);

  it('tandem models lists the catalog of a running server', async () => {
    const result = await runTandem(['models', '--url', fixture.server.url, '--token', fixture.tokens.view]);
    expect(result.code).toBe(0);
    const [header, ...rows] = result.stdout.trimEnd().split('\n');
    expect(header).toMatch(/^MODEL\s+CONTEXT\s+TOOLS\s+TIER\s+LABEL$/);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((row) => /^\S+\/\S+\s+\d+k\s+(yes|no)\s/.test(row))).toBe(true);
  }, 240_000);

  it("tandem memory shows a session's memory and history", async () => {
    const result = await runTandem(['memory', fixture.sessionId.slice(0, 8), '--url', fixture.server.url, '--token', fixture.tokens.view]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^# MEMORY\.md\n\n[\s\S]*\n# HISTORY\.md\n/);
  }, 240_000);
});
