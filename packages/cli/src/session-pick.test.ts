import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runServe, type RunningServer } from '@tandem/server';
import { makeTempDir, type TempDir } from '@tandem/testkit';
import { TandemClient } from '@tandem/tui';
import { pickSession } from './session-pick.js';

/** Which session `tandem` / `tandem attach` opens, against a real server (no model is called). */
let data: TempDir;
let root: TempDir;
let server: RunningServer;
let token: string;
let viewToken: string;

beforeAll(async () => {
  data = await makeTempDir('tandem-pick-data-');
  root = await makeTempDir('tandem-pick-root-');
  const sink = new Writable({ write: (_chunk, _encoding, done) => done() });
  const env = { ...process.env, TANDEM_TOKEN: '', TANDEM_VIEW_TOKEN: '', TANDEM_MODEL: 'openai/gpt-4.1-mini' };
  server = await runServe({ host: '127.0.0.1', port: 0, dataDir: data.path, env, handleSignals: false, stdout: sink });
  token = (await readFile(join(data.path, 'token'), 'utf8')).trim();
  viewToken = (await readFile(join(data.path, 'view-token'), 'utf8')).trim();
}, 60_000);

afterAll(async () => {
  await server?.close();
  await data?.cleanup();
  await root?.cleanup();
});

async function withClient<T>(work: (client: TandemClient) => Promise<T>, viewer = false): Promise<T> {
  const client = new TandemClient(server.url, { token: viewer ? viewToken : token, name: viewer ? 'watcher' : 'ana' });
  try {
    await client.ready();
    return await work(client);
  } finally {
    client.close();
  }
}

describe('pickSession', () => {
  it("creates the folder's session with --model, reopens it, switches its model when --model differs, and finds one by id prefix", async () => {
    const folder = join(root.path, 'app');
    await mkdir(folder);
    const created = await withClient((client) => pickSession(client, { cwd: folder, model: 'anthropic/claude-sonnet-4-5' }));
    expect(created).toMatchObject({ created: true, switched: false, session: { cwd: folder, model: 'anthropic/claude-sonnet-4-5' } });

    const again = await withClient((client) => pickSession(client, { cwd: folder }));
    expect(again).toMatchObject({ created: false, switched: false, session: { id: created.session.id } });

    const switched = await withClient((client) => pickSession(client, { cwd: folder, model: 'openai/gpt-4.1' }));
    expect(switched).toMatchObject({ created: false, switched: true, session: { id: created.session.id, model: 'openai/gpt-4.1' } });
    const events = await withClient(async (client) => {
      const seen: Array<{ type: string; model?: string; by?: string }> = [];
      client.subscribe((signal) => {
        if (signal.kind === 'event') seen.push(signal.event as { type: string; model?: string; by?: string });
      });
      await client.attach(created.session.id, 'viewer');
      return seen;
    }, true);
    expect(events.filter((e) => e.type === 'session_configured')).toEqual([expect.objectContaining({ model: 'openai/gpt-4.1', by: 'ana' })]);

    const byPrefix = await withClient((client) => pickSession(client, { sessionId: created.session.id.slice(0, 6), cwd: root.path }));
    expect(byPrefix.session.id).toBe(created.session.id);
    const other = await withClient((client) => pickSession(client, { cwd: root.path }));
    expect(other.created).toBe(true);
    expect(other.session.cwd).toBe(root.path);
  }, 60_000);

  it('a viewer cannot start a session or switch a model, and is told what to do', async () => {
    const folder = join(root.path, 'viewer-only');
    await mkdir(folder);
    await expect(withClient((client) => pickSession(client, { cwd: folder, viewer: true }), true)).rejects.toThrow(
      `no session for ${folder} on ${server.url}, and a viewer cannot start one; ask a driver to open it, or name a session (tandem ls lists them)`,
    );
    const made = await withClient((client) => pickSession(client, { cwd: folder }));
    await expect(withClient((client) => pickSession(client, { cwd: folder, viewer: true, model: 'openai/gpt-4.1' }), true)).rejects.toThrow(
      /--model needs a driver/,
    );
    const watched = await withClient((client) => pickSession(client, { cwd: folder, viewer: true }), true);
    expect(watched.session.id).toBe(made.session.id);
  }, 60_000);
});
