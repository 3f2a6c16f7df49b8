import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeModelServer, type FakeModelServer } from '@tandem/testkit';
import { startTestServer, tempDir, type TestServer } from './server-harness.js';

/** config.json's limits reach every turn of the default server. */
let fake: FakeModelServer;
let server: TestServer | undefined;
beforeEach(async () => {
  fake = await startFakeModelServer();
});
afterEach(async () => {
  await server?.stop();
  server = undefined;
  await fake.close();
});

describe('limits from config.json', () => {
  it('runs commands with commandEnv and stops a turn at maxIterations', async () => {
    const dataDir = (await tempDir('tandem-limits-')).path;
    await writeFile(join(dataDir, 'config.json'), JSON.stringify({ maxIterations: 2, commandEnv: { I1_MARK: 'from-config' }, toolCallsPerMinute: 100 }));
    server = await startTestServer({ dataDir, env: { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: fake.openaiBaseURL } });
    const alice = await server.connect('alice');
    const { session } = await alice.ok('session:create', {});
    const sessionId = session.id;
    await alice.ok('session:attach', { sessionId, role: 'driver' });
    alice.approveAll(sessionId);
    fake.enqueue(
      { toolCalls: [{ name: 'run_command', args: { command: 'echo "mark=$I1_MARK"' } }] },
      { toolCalls: [{ name: 'list_directory', args: { path: '.' } }] },
      { text: 'never reached' },
    );
    await alice.ok('session:send', { sessionId, text: 'go' });
    const done = await alice.waitFor((e) => e.type === 'turn_done');
    expect(done).toMatchObject({ outcome: 'max_iterations' });
    expect(alice.events.find((e) => e.type === 'tool_result')).toMatchObject({ output: expect.stringContaining('mark=from-config') });
    expect(fake.requests).toHaveLength(2);
  });
});
