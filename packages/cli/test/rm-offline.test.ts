import { Writable } from 'node:stream';
import type { SessionInfo } from '@tandem/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeSession } from '../src/commands/remove.js';
import { ScriptedServer } from './scripted-server.js';

// `tandem rm` on a session listed `offline` (its cluster node is gone): the server removes it from
// the cluster's list (the Redis side is tested in packages/server/test/cluster/cluster-remove.test.ts);
// the CLI says that the node's data was not touched, and passes on why when the server refuses.

const OFFLINE: SessionInfo = {
  id: 'gone-0001-session',
  title: 'on a dead node',
  cwd: '/work/demo',
  model: 'openai/gpt-4.1-mini',
  createdAt: '2026-01-01T00:00:00.000Z',
  status: 'offline',
  lastSeq: 12,
};

let server: ScriptedServer;
beforeAll(async () => {
  server = await ScriptedServer.start(OFFLINE);
});
afterAll(async () => {
  await server?.close();
});

function output(): { out: Writable; text: () => string } {
  let text = '';
  const out = new Writable({
    write: (chunk, _encoding, done) => {
      text += String(chunk);
      done();
    },
  });
  return { out, text: () => text };
}

describe('tandem rm on an offline session', () => {
  it("says it left the cluster's list and that the node's data is not touched", async () => {
    const { out, text } = output();
    expect(await removeSession({ url: server.url, token: 'any', dataDir: '/nonexistent', session: 'gone-0001', out })).toBe(0);
    expect(server.requests('session:delete').at(-1)?.payload).toEqual({ sessionId: OFFLINE.id });
    expect(text()).toBe(
      `removed offline session ${OFFLINE.id} (on a dead node, /work/demo) from the cluster's list; its log and data on the node that ran it are not touched (start that node again and it is listed again)\n`,
    );
  });

  it("gives the server's reason when a node holds the session's lease again", async () => {
    const reason = `session ${OFFLINE.id} is not offline any more: node node-a holds its lease (it is back); deleting it again deletes it on that node`;
    server.deleteAnswer = { ok: false, error: { code: 'conflict', message: reason } };
    const { out, text } = output();
    await expect(removeSession({ url: server.url, token: 'any', dataDir: '/nonexistent', session: OFFLINE.id, out })).rejects.toThrow(reason);
    expect(text()).toBe('');
  });
});
