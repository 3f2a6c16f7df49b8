import type { ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionEvent } from '@tandem/shared';
import { SESSION_EVENT } from '@tandem/shared';
import { makeTempDir, startFakeModelServer, type FakeModelServer, type FakeReply, type FakeRequest, type TempDir } from '@tandem/testkit';
import { bundleServe } from './serve-bundle.js';
import { startServeProcess, type ServeProcess } from './serve-process.js';
import { connectClient, startTestServer, TOKENS, type TestClient } from './server-harness.js';

/**
 * Durable before visible, checked against a real `tandem serve` killed with SIGKILL at random
 * moments of a streaming turn that runs a pty command: every event any client received is in the
 * log after the restart (same seq, same content), no seq is ever given to two events, and the
 * turn's interruption comes after the last seq written.
 */
const KILLS = 20;

const dirs: TempDir[] = [];
const children: ChildProcess[] = [];
let fake: FakeModelServer | undefined;
/** `tandem serve` built once from the source: 21 starts through tsx would cost twice the CPU. */
let bundle: string | undefined;

beforeAll(async () => {
  const out = await makeTempDir('tandem-serve-bundle-');
  dirs.push(out);
  bundle = await bundleServe(out.path);
});

afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await fake?.close();
  for (const d of dirs.splice(0)) await d.cleanup();
});

/** Streams a few deltas and calls run_command; once the command's result is in, streams a final answer. */
function scripted(req: FakeRequest): FakeReply {
  const messages = (req.body?.messages ?? []) as Array<{ role: string; content?: unknown }>;
  const last = messages.at(-1);
  if (last?.role === 'tool') return { chunks: ['All ', 'lines ', 'were ', 'printed.'], chunkDelayMs: 2 };
  const userText = [...messages].reverse().find((m) => m.role === 'user');
  const round = /round (\d+)/.exec(JSON.stringify(userText?.content ?? ''))?.[1] ?? '0';
  // The round number keeps each command distinct (no identical-call cooldown across rounds).
  const command = `echo round-${round}; for i in 1 2 3 4 5 6; do echo line-$i; done`;
  return { chunks: ['Running ', 'the ', 'loop ', 'now.'], chunkDelayMs: 2, toolCalls: [{ name: 'run_command', args: { command } }] };
}

function serve(dataDir: string): Promise<ServeProcess> {
  return startServeProcess({
    args: ['--data-dir', dataDir],
    env: { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: fake!.openaiBaseURL },
    bundle,
    children,
  });
}

/** The events of the turn a client received from index `from` on (presence comes and goes with attaching). */
function turnEvents(client: TestClient, from: number): SessionEvent[] {
  return client.events.slice(from).filter((e) => e.type !== 'presence');
}

/**
 * Resolves when `client` has received the `n`th event of the turn (persisted or ephemeral), or
 * the turn's end if it had fewer (the pty's output may come in fewer pieces than last time).
 */
function nthEvent(client: TestClient, from: number, n: number): Promise<void> {
  const reached = () => turnEvents(client, from).length >= n || client.events.slice(from).some((e) => e.type === 'turn_done');
  if (reached()) return Promise.resolve();
  return new Promise((resolve) => {
    const check = () => {
      if (!reached()) return;
      client.socket.off(SESSION_EVENT, check);
      resolve();
    };
    client.socket.on(SESSION_EVENT, check);
  });
}

function lastTurnOpen(events: SessionEvent[]): boolean {
  for (let i = events.length - 1; i >= 0; i--) {
    const type = events[i]!.type;
    if (type === 'turn_started') return true;
    if (type === 'turn_done' || type === 'turn_cancelled' || type === 'turn_interrupted') return false;
  }
  return false;
}

/** The events in the log file, as the next server will read them (a torn last line is not an event). */
async function writtenEvents(path: string): Promise<SessionEvent[]> {
  const text = await readFile(path, 'utf8');
  const events: SessionEvent[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      events.push(JSON.parse(line) as SessionEvent);
    } catch {
      // A half-written last line: the crash cut it; it was never sent to anyone.
    }
  }
  return events;
}

/** An ephemeral event carries the seq of the persisted event before it: that one must have arrived already. */
function deltasFollowTheirEvent(replayedUpTo: number, live: SessionEvent[], context: string): void {
  let seen = replayedUpTo;
  for (const event of live) {
    if (event.ephemeral) expect(event.seq, context).toBe(seen);
    else seen = event.seq;
  }
}

function seqsOf(events: SessionEvent[]): number[] {
  return events.filter((e) => !e.ephemeral).map((e) => e.seq);
}

interface Round {
  dataDir: string;
  workspace: string;
  served: ServeProcess;
}

/** A data dir, a workspace and a `tandem serve` on them, started ahead of time (starting is the slow part). */
async function prepareRound(): Promise<Round> {
  const dataDir = await makeTempDir('tandem-durable-data-');
  const workspace = await makeTempDir('tandem-durable-ws-');
  dirs.push(dataDir, workspace);
  return { dataDir: dataDir.path, workspace: workspace.path, served: await serve(dataDir.path) };
}

describe('kill -9 during a streaming turn with a pty command', () => {
  it(`never shows an event that the log loses, never reuses a seq (${KILLS} random kills)`, async () => {
    fake = await startFakeModelServer();
    fake.setHandler(scripted);
    const fakeEnv = { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: fake.openaiBaseURL };
    // Each round kills its own server process; the next ones start meanwhile (two ahead).
    const rounds: Array<Promise<Round>> = [prepareRound(), prepareRound()];
    // Keep a failed start from being reported as unhandled before its round awaits it.
    for (const r of rounds) r.catch(() => undefined);

    let perTurn = 0;
    const moments: number[] = [];
    let interruptedTurns = 0;
    for (let round = 0; round <= KILLS; round++) {
      const { dataDir, workspace, served } = await rounds[round]!;
      if (round + 2 <= KILLS) {
        const next = prepareRound();
        next.catch(() => undefined);
        rounds.push(next);
      }
      const driver = await connectClient(served.url, 'driver', TOKENS.control);
      const viewer = await connectClient(served.url, 'viewer', TOKENS.view);
      const { session } = await driver.ok('session:create', { cwd: workspace });
      const driverReplay = await driver.ok('session:attach', { sessionId: session.id, role: 'driver' });
      const viewerReplay = await viewer.ok('session:attach', { sessionId: session.id, role: 'viewer' });
      // The driver answers every permission question (the kill may cut an answer short: that is fine).
      driver.socket.on(SESSION_EVENT, (e: SessionEvent) => {
        if (e.type === 'permission_request')
          void driver.request('permission:respond', { sessionId: session.id, requestId: e.requestId, decision: 'allow_once' }).catch(() => undefined);
      });

      // Round 0 runs its turn to the end, to learn how many events a client gets in a turn; then
      // the kill comes after the driver's Nth event of the turn, N anywhere from the first to the last.
      const n = round === 0 ? Number.POSITIVE_INFINITY : 1 + Math.floor(Math.random() * perTurn);
      moments.push(n);
      const from = driver.events.length;
      await driver.ok('session:send', { sessionId: session.id, text: `round ${round}` });
      await nthEvent(driver, from, n);
      if (round === 0) perTurn = turnEvents(driver, from).length;
      served.child.kill('SIGKILL');
      await new Promise((r) => (served.child.exitCode !== null || served.child.signalCode !== null ? r(undefined) : served.child.once('exit', r)));
      const received = [...driver.events, ...viewer.events];
      // Each client saw a delta only right behind the persisted event it follows (never ahead of it).
      deltasFollowTheirEvent(driverReplay.events.at(-1)?.seq ?? 0, driver.events, `round ${round} driver`);
      deltasFollowTheirEvent(viewerReplay.events.at(-1)?.seq ?? 0, viewer.events, `round ${round} viewer`);
      driver.close();
      viewer.close();

      const written = await writtenEvents(join(dataDir, 'sessions', session.id, 'events.jsonl'));
      const lastWritten = written.at(-1)?.seq ?? 0;
      const context = `round ${round}: killed after event ${n} of ${perTurn} (moments ${moments.join(',')})`;

      // The next server on the same data dir (in this process: loading is what is checked here).
      const restarted = await startTestServer({ dataDir, env: fakeEnv });
      try {
        const reader = await restarted.connect('reader');
        const { events: replay } = await reader.ok('session:attach', { sessionId: session.id, role: 'viewer', afterSeq: 0 });
        const bySeq = new Map(replay.map((e) => [e.seq, e]));

        // Every persisted event any client received is in the log, identical.
        for (const event of received.filter((e) => !e.ephemeral)) expect(bySeq.get(event.seq), context).toEqual(event);
        // A delta never carries a seq the log does not have.
        for (const event of received.filter((e) => e.ephemeral)) expect(event.seq, context).toBeLessThanOrEqual(lastWritten);
        // One event per seq, 1, 2, 3 … with no gap: nothing was given a seq twice.
        const seqs = seqsOf(replay);
        expect(seqs, context).toEqual(Array.from({ length: seqs.length }, (_, i) => i + 1));
        // What was written before the crash is exactly what the next server replays up to there.
        expect(
          replay.filter((e) => e.seq <= lastWritten),
          context,
        ).toEqual(written);
        // The turn the kill cut is closed after the last written seq, never with a reused one.
        const interrupted = replay.filter((e) => e.type === 'turn_interrupted');
        if (lastTurnOpen(written)) {
          interruptedTurns++;
          expect(interrupted, context).toHaveLength(1);
          expect(interrupted[0]!.seq, context).toBeGreaterThan(lastWritten);
          expect(interrupted[0]!.seq, context).toBeGreaterThan(Math.max(0, ...seqsOf(received)));
        } else {
          expect(interrupted, context).toHaveLength(0);
        }
      } finally {
        await restarted.stop();
      }
    }
    expect(perTurn).toBeGreaterThan(15);
    // The kills landed inside turns (otherwise this test would prove little).
    expect(interruptedTurns).toBeGreaterThan(KILLS / 2);
  }, 600_000);
});
