import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fakeModelBed, startTestServer, tempDir } from './server-harness.js';

/** config.json's limits reach every turn of the default server. */
const bed = fakeModelBed();

describe('limits from config.json', () => {
  it('runs commands with commandEnv and stops a turn at maxIterations', async () => {
    const dataDir = (await tempDir('tandem-limits-')).path;
    await writeFile(join(dataDir, 'config.json'), JSON.stringify({ maxIterations: 2, commandEnv: { I1_MARK: 'from-config' }, toolCallsPerMinute: 100 }));
    bed.server = await startTestServer({ dataDir, env: bed.env() });
    const alice = await bed.server.connect('alice');
    const { session } = await alice.ok('session:create', {});
    const sessionId = session.id;
    await alice.ok('session:attach', { sessionId, role: 'driver' });
    alice.approveAll(sessionId);
    bed.fake.enqueue(
      { toolCalls: [{ name: 'run_command', args: { command: 'echo "mark=$I1_MARK"' } }] },
      { toolCalls: [{ name: 'list_directory', args: { path: '.' } }] },
      { text: 'never reached' },
    );
    await alice.ok('session:send', { sessionId, text: 'go' });
    const done = await alice.waitFor((e) => e.type === 'turn_done');
    expect(done).toMatchObject({ outcome: 'max_iterations' });
    expect(alice.events.find((e) => e.type === 'tool_result')).toMatchObject({ output: expect.stringContaining('mark=from-config') });
    expect(bed.fake.requests).toHaveLength(2);
  });
});
