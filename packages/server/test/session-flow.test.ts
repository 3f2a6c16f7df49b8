import { appendFile, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import type { EngineEvent, TurnOptions } from '@tandem/core';
import type { SessionEvent } from '@tandem/shared';
import { ScriptedLoop, idleModelFactory } from './scripted-engine.js';
import { startTestServer, tempDir, type TestServer } from './server-harness.js';

let servers: TestServer[] = [];
afterEach(async () => {
  for (const s of servers) await s.stop();
  servers = [];
});

async function start(loop: ScriptedLoop, dataDir?: string) {
  const server = await startTestServer({ engine: { runTurn: loop.runTurn }, modelFactory: idleModelFactory, ...(dataDir ? { dataDir } : {}) });
  servers.push(server);
  return server;
}

const strip = (events: SessionEvent[]) => events.filter((e) => !e.ephemeral).map((e) => ({ seq: e.seq, type: e.type }));

describe('a turn seen by several clients', () => {
  it('gives attached clients identical seq-ordered events, a late attacher the missed ones, a mid-turn attacher the partial text', async () => {
    const loop = new ScriptedLoop(['Hel', 'lo ', 'there']);
    const server = await start(loop);
    const alice = await server.connect('alice');
    const bob = await server.connect('bob');
    const { session } = await alice.ok('session:create', { title: 't' });
    await alice.ok('session:attach', { sessionId: session.id, role: 'driver' });
    await bob.ok('session:attach', { sessionId: session.id, role: 'viewer' });
    await alice.waitFor((e) => e.type === 'presence' && e.clients.length === 2);
    // Events reach each client on its own socket: wait for Bob's copy too.
    await bob.waitFor((e) => e.type === 'presence' && e.clients.length === 2);
    const bobSeenBefore = bob.events.at(-1)!.seq;

    expect(await alice.ok('session:send', { sessionId: session.id, text: 'hi' })).toMatchObject({ mode: 'turn', turnId: expect.any(String) });
    await loop.waitingForRelease();
    await alice.waitFor((e) => e.type === 'text_delta' && e.delta === 'there');
    expect((await alice.request('session:list', {})).ok).toBe(true);
    expect((await alice.ok('session:list', {})).sessions[0]!.status).toBe('running');

    // Carol attaches mid-reply: she gets the history plus the text streamed so far.
    const carol = await server.connect('carol');
    const c = await carol.ok('session:attach', { sessionId: session.id, role: 'viewer' });
    const partial = await carol.waitFor((e) => e.type === 'text_delta');
    expect(partial.type === 'text_delta' && partial.delta).toBe('Hello there');
    expect(partial.ephemeral).toBe(true);
    expect(c.events.map((e) => e.type)).toContain('turn_started');

    // Steering while the turn runs is folded into it, not queued as a new turn.
    expect(await alice.ok('session:send', { sessionId: session.id, text: 'also this' })).toMatchObject({ mode: 'steer' });
    loop.release();
    await alice.waitFor((e) => e.type === 'turn_done');
    await bob.waitFor((e) => e.type === 'turn_done');
    await carol.waitFor((e) => e.type === 'turn_done');
    expect(loop.steered).toEqual([{ text: 'also this', by: 'alice' }]);
    expect(loop.calls).toHaveLength(1);

    const aliceTurn = strip(alice.events.filter((e) => e.seq > bobSeenBefore));
    const bobTurn = strip(bob.events.filter((e) => e.seq > bobSeenBefore));
    expect(bobTurn).toEqual(aliceTurn);
    expect(aliceTurn.map((e) => e.type)).toEqual(['user_message', 'turn_started', 'presence', 'user_message', 'assistant_text', 'turn_done']);
    const seqs = aliceTurn.map((e) => e.seq);
    expect(seqs).toEqual([...seqs].sort((x, y) => x - y));
    expect(new Set(seqs).size).toBe(seqs.length);
    // Deltas are ephemeral: they carry the last persisted seq and reach every attached client.
    expect(bob.events.filter((e) => e.type === 'text_delta').map((e) => (e.type === 'text_delta' ? e.delta : ''))).toEqual(['Hel', 'lo ', 'there']);

    // Dave reconnects with the last seq Bob had before the turn: he gets exactly what he missed.
    const dave = await server.connect('dave');
    const d = await dave.ok('session:attach', { sessionId: session.id, role: 'viewer', afterSeq: bobSeenBefore });
    const full = bob.persisted().filter((e) => e.seq > bobSeenBefore);
    expect(d.events).toEqual(full);
    expect(d.session.lastSeq).toBe(full.at(-1)!.seq);
    expect(d.events.some((e) => e.type === 'text_delta')).toBe(false);

    // The log on disk holds the same persisted events, one JSON line each.
    await servers[0]!.app.sessions.get(session.id)!.log.flush();
    const lines = (await readFile(join(server.dataDir, 'sessions', session.id, 'events.jsonl'), 'utf8')).trim().split('\n');
    const onDisk = lines.map((l) => JSON.parse(l) as SessionEvent);
    expect(onDisk.filter((e) => e.seq > bobSeenBefore && e.seq <= full.at(-1)!.seq)).toEqual(full);
    expect(onDisk[0]!.type).toBe('session_info');
  });

  it('hands the configured loop limits, the workspace and the session plumbing to the engine', async () => {
    const loop = new ScriptedLoop();
    const server = await startTestServer({
      engine: { runTurn: loop.runTurn },
      modelFactory: idleModelFactory,
      limits: { maxIterations: 3 },
      turnStep: (o) => ({ ...o, environment: { ...o.environment, temperature: 0.5 } }),
    });
    servers.push(server);
    const alice = await server.connect('alice');
    const { session } = await alice.ok('session:create', {});
    await alice.ok('session:attach', { sessionId: session.id, role: 'driver' });
    await alice.ok('session:send', { sessionId: session.id, text: 'go' });
    await loop.waitingForRelease();
    const opts = loop.calls[0]!;
    expect(opts.environment.limits).toEqual({ maxIterations: 3 });
    expect(opts.environment.temperature).toBe(0.5);
    expect(opts.environment.cwd).toBe(server.workspace.path);
    expect(opts.user.text).toBe('go');
    expect(opts.user.name).toBe('alice');
    expect(opts.model.id).toBe('openai/fake-model');
    expect(opts.environment.tools.map((t) => t.name)).toContain('run_command');
    expect(opts.prompt.system).toContain(server.workspace.path);
    expect(typeof (opts.environment.services as { jobs?: { start?: unknown } }).jobs?.start).toBe('function');
    loop.release();
    await alice.waitFor((e) => e.type === 'turn_done');
    // The session is idle the moment turn_done is out: the next message starts a turn.
    expect((await alice.ok('session:list', {})).sessions[0]!.status).toBe('idle');
    expect(await alice.ok('session:send', { sessionId: session.id, text: 'next' })).toMatchObject({ mode: 'turn' });
    await loop.waitingForRelease();
    loop.release();
    await alice.waitFor((e) => e.type === 'turn_done' && e.turnId === loop.calls[1]!.turnId);
    expect(loop.calls).toHaveLength(2);
  });

  it('cancels a running turn and goes back to idle', async () => {
    const loop = new ScriptedLoop();
    const server = await start(loop);
    const alice = await server.connect('alice');
    const { session } = await alice.ok('session:create', {});
    await alice.ok('session:attach', { sessionId: session.id, role: 'driver' });
    await alice.ok('session:send', { sessionId: session.id, text: 'go' });
    await loop.waitingForRelease();
    await alice.ok('session:send', { sessionId: session.id, text: 'steer that will be dropped' });
    await alice.ok('session:cancel', { sessionId: session.id });
    await alice.waitFor((e) => e.type === 'turn_cancelled');
    const list = await alice.ok('session:list', {});
    expect(list.sessions[0]!.status).toBe('idle');
    expect(loop.calls).toHaveLength(1);
    // A new message after the cancel starts a fresh turn.
    expect(await alice.ok('session:send', { sessionId: session.id, text: 'again' })).toMatchObject({ mode: 'turn' });
    await loop.waitingForRelease();
    loop.release();
    await alice.waitFor((e) => e.type === 'turn_done');
  });
});

describe('restart', () => {
  it('keeps history, closes a running turn as interrupted and skips a truncated last line', async () => {
    const loop = new ScriptedLoop();
    const first = await start(loop);
    const alice = await first.connect('alice');
    const { session } = await alice.ok('session:create', { title: 'survivor' });
    await alice.ok('session:attach', { sessionId: session.id, role: 'driver' });
    await alice.ok('session:send', { sessionId: session.id, text: 'long job' });
    await loop.waitingForRelease();
    // Simulate a crash: the process dies with the turn running, no clean shutdown, a half line.
    const live = first.app.sessions.get(session.id)!;
    await live.log.flush();
    const logPath = join(first.dataDir, 'sessions', session.id, 'events.jsonl');
    const crashCopy = await readFile(logPath, 'utf8');
    await first.stop();
    servers = [];
    await writeFile(logPath, crashCopy);
    await appendFile(logPath, '{"sessionId":"' + session.id + '","seq":99,"ts":"2026-');

    const before = crashCopy
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as SessionEvent);
    const warnings: string[] = [];
    const logger = pino({ level: 'warn' }, new Writable({ write: (chunk, _enc, done) => (warnings.push(String(chunk)), done()) }));
    const second = await startTestServer({ engine: { runTurn: new ScriptedLoop().runTurn }, modelFactory: idleModelFactory, dataDir: first.dataDir, logger });
    servers.push(second);
    expect(warnings.join('')).toContain('not a complete event');
    const bob = await second.connect('bob');
    const list = await bob.ok('session:list', {});
    expect(list.sessions.map((s) => s.title)).toEqual(['survivor']);
    expect(list.sessions[0]!.status).toBe('idle');
    const attached = await bob.ok('session:attach', { sessionId: session.id, role: 'viewer' });
    // After the interruption: nobody from the old process is attached any more.
    expect(attached.events.at(-1)).toMatchObject({ type: 'presence', clients: [] });
    const last = attached.events.at(-2)!;
    expect(last.type).toBe('turn_interrupted');
    if (last.type === 'turn_interrupted') expect(last.reason).toBe('the server stopped while this turn was running');
    const turnStarted = before.find((e) => e.type === 'turn_started')!;
    expect(last.type === 'turn_interrupted' && last.turnId).toBe(turnStarted.type === 'turn_started' ? turnStarted.turnId : '');
    expect(attached.events.slice(0, before.length)).toEqual(before);
    expect(attached.events).toHaveLength(before.length + 2);
    expect(last.seq).toBe(before.at(-1)!.seq + 1);
    // The half-written line is not replayed, and new events continue after the last good seq.
    expect(attached.events.some((e) => e.seq === 99)).toBe(false);
  });

  it('ends running turns as interrupted on a clean shutdown', async () => {
    const loop = new ScriptedLoop();
    const first = await start(loop);
    const alice = await first.connect('alice');
    const { session } = await alice.ok('session:create', {});
    await alice.ok('session:attach', { sessionId: session.id, role: 'driver' });
    await alice.ok('session:send', { sessionId: session.id, text: 'go' });
    await loop.waitingForRelease();
    await first.stop();
    servers = [];
    const lines = (await readFile(join(first.dataDir, 'sessions', session.id, 'events.jsonl'), 'utf8')).trim().split('\n');
    const last = JSON.parse(lines.at(-1)!) as SessionEvent;
    expect(last.type).toBe('turn_interrupted');
    expect(lines.filter((l) => l.includes('"turn_cancelled"'))).toHaveLength(0);
  });

  it('closes a turn whose engine ignores the shutdown, and drops what it says afterwards', async () => {
    let speak: (() => void) | undefined;
    const stubborn = (opts: TurnOptions): AsyncIterable<EngineEvent> =>
      (async function* () {
        yield { type: 'turn_started', turnId: opts.turnId, model: opts.model.id };
        await new Promise<void>((r) => (speak = r)); // ignores opts.signal
        yield { type: 'assistant_text', turnId: opts.turnId, iteration: 1, text: 'too late' };
      })();
    const server = await startTestServer({ engine: { runTurn: stubborn }, modelFactory: idleModelFactory, shutdownGraceMs: 100 });
    const alice = await server.connect('alice');
    const { session } = await alice.ok('session:create', {});
    await alice.ok('session:attach', { sessionId: session.id, role: 'driver' });
    await alice.ok('session:send', { sessionId: session.id, text: 'go' });
    await alice.waitFor((e) => e.type === 'turn_started');
    await server.stop();
    speak?.();
    await new Promise((r) => setTimeout(r, 50));
    const lines = (await readFile(join(server.dataDir, 'sessions', session.id, 'events.jsonl'), 'utf8')).trim().split('\n');
    const types = lines.map((l) => (JSON.parse(l) as SessionEvent).type);
    expect(types.at(-1)).toBe('turn_interrupted');
    expect(types).not.toContain('assistant_text');
  });

  it('refuses to start on an unreadable session index, saying which file', async () => {
    const dataDir = (await tempDir('tandem-badindex-')).path;
    await writeFile(join(dataDir, 'sessions.json'), '{ not json');
    await expect(startTestServer({ dataDir })).rejects.toThrow(/cannot read the session index .*sessions\.json.*fix or move the file/);
  });

  it('gives an indexed session whose log never reached the disk a fresh start', async () => {
    const first = await start(new ScriptedLoop());
    const alice = await first.connect('alice');
    const { session } = await alice.ok('session:create', { title: 'empty' });
    await first.stop();
    servers = [];
    await rm(join(first.dataDir, 'sessions', session.id, 'events.jsonl'));
    const second = await start(new ScriptedLoop(), first.dataDir);
    const bob = await second.connect('bob');
    const attached = await bob.ok('session:attach', { sessionId: session.id, role: 'viewer' });
    expect(attached.events[0]).toMatchObject({ seq: 1, type: 'session_info', title: 'empty' });
  });
});
