import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import type { SessionEvent, SessionInfo } from '@tandem/shared';
import { type Action, initialState, reduceAll } from '@tandem/tui/state';
import { request, startBenchServer } from './bench-server.js';
import { fmt, median } from './stats.js';
import { printTable } from './table.js';

const EVENTS = 100_000;
const TAIL = 200;
const PAGE = 300;
const RUNS = 5;

/**
 * A log of `count` events in the shape of real turns: a message, then ten read_file calls with
 * their results (a few hundred bytes each), the answer and turn_done (24 events per turn).
 */
async function writeLongLog(path: string, sessionId: string, fromSeq: number, count: number): Promise<void> {
  const out = createWriteStream(path, { flags: 'a' });
  const body = 'export function example(value: number): number {\n  return value * 2;\n}\n'.repeat(5);
  let seq = fromSeq;
  let turn = 0;
  const write = async (event: Record<string, unknown>) => {
    seq++;
    if (!out.write(`${JSON.stringify({ sessionId, seq, ts: '2026-12-01T00:00:00.000Z', ...event })}\n`)) await once(out, 'drain');
  };
  while (seq < fromSeq + count) {
    const turnId = `t${++turn}`;
    await write({ type: 'user_message', text: `question ${turn}: what does src/file-${turn}.ts do?`, by: 'ana', mode: 'turn' });
    await write({ type: 'turn_started', turnId, model: 'bench/model' });
    for (let i = 0; i < 10; i++) {
      const callId = `${turnId}-c${i}`;
      await write({ type: 'tool_call', turnId, iteration: i + 1, callId, tool: 'read_file', args: { path: `src/file-${i}.ts` }, danger: 'safe' });
      await write({ type: 'tool_result', turnId, callId, tool: 'read_file', isError: false, output: body, durationMs: 2, outcome: 'ok' });
    }
    await write({ type: 'assistant_text', turnId, iteration: 11, text: `It doubles a number. ${'The function is pure. '.repeat(10)}` });
    await write({ type: 'turn_done', turnId, iterations: 11, outcome: 'answered' });
  }
  out.end();
  await once(out, 'finish');
}

interface Screen {
  ms: number;
  bytes: number;
  events: number;
  items: number;
}

/** Connect first (not timed); then time the attach request until its events are folded into the view. */
async function attachOnce(server: Awaited<ReturnType<typeof startBenchServer>>, sessionId: string, tail: number | undefined): Promise<Screen> {
  const socket = await server.connect('bench-attach');
  try {
    const started = performance.now();
    const ack = await request<{ session: SessionInfo; events: SessionEvent[] }>(socket, 'session:attach', {
      sessionId,
      role: 'viewer',
      ...(tail ? { tail } : {}),
    });
    const actions: Action[] = [{ kind: 'attached', session: ack.session, role: 'viewer' }, ...ack.events.map((event): Action => ({ kind: 'event', event }))];
    const view = reduceAll(initialState({ url: server.url, me: 'bench', role: 'viewer' }), actions);
    const ms = performance.now() - started;
    return { ms, bytes: Buffer.byteLength(JSON.stringify(ack)), events: ack.events.length, items: view.items.length };
  } finally {
    socket.disconnect();
  }
}

async function historyPage(socket: Awaited<ReturnType<Awaited<ReturnType<typeof startBenchServer>>['connect']>>, sessionId: string, beforeSeq: number) {
  const started = performance.now();
  const page = await request<{ events: SessionEvent[]; firstSeq?: number }>(socket, 'session:history', { sessionId, beforeSeq, limit: PAGE });
  return { ms: performance.now() - started, bytes: Buffer.byteLength(JSON.stringify(page)), firstSeq: page.firstSeq ?? beforeSeq };
}

/**
 * Attach to a session of 100,000 events: the first screen (attach with a tail, ack received and
 * folded by the TUI's reducer) beside a full replay of the same log, interleaved in the same run.
 */
export async function benchAttachLongSession(): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), 'tandem-bench-attach-'));
  try {
    const first = await startBenchServer({ dataDir });
    const driver = await first.connect('driver');
    const { session } = await request<{ session: { id: string } }>(driver, 'session:create', { title: 'long session' });
    await first.close();
    const logPath = join(dataDir, 'sessions', session.id, 'events.jsonl');
    const existing = (await readFile(logPath, 'utf8')).split('\n').filter(Boolean).length;
    await writeLongLog(logPath, session.id, existing, EVENTS - existing);

    const loadStarted = performance.now();
    const server = await startBenchServer({ dataDir });
    const loadMs = performance.now() - loadStarted;
    try {
      const tail: Screen[] = [];
      const full: Screen[] = [];
      for (let run = 0; run < RUNS; run++) {
        // Interleaved, the order alternating, so a busy moment lands on both.
        if (run % 2 === 0) {
          tail.push(await attachOnce(server, session.id, TAIL));
          full.push(await attachOnce(server, session.id, undefined));
        } else {
          full.push(await attachOnce(server, session.id, undefined));
          tail.push(await attachOnce(server, session.id, TAIL));
        }
      }
      const reader = await server.connect('bench-history');
      const firstScreen = await request<{ firstSeq?: number }>(reader, 'session:attach', { sessionId: session.id, role: 'viewer', tail: TAIL });
      // Scrolling up: ten pages in a row, each starting where the previous one did.
      const pages: Array<{ ms: number; bytes: number }> = [];
      let before = firstScreen.firstSeq ?? EVENTS;
      for (let i = 0; i < 10; i++) {
        const page = await historyPage(reader, session.id, before);
        pages.push(page);
        before = page.firstSeq;
      }
      // A page deep in the log asked for directly (nothing remembered: read backwards from the end).
      const deep = await historyPage(reader, session.id, Math.floor(EVENTS / 2));
      const row = (label: string, screens: Screen[]) => [
        label,
        fmt(median(screens.map((s) => s.ms)), 1),
        fmt(median(screens.map((s) => s.bytes)) / 1024, 0),
        String(screens[0]!.events),
        String(screens[0]!.items),
      ];
      const tailMs = median(tail.map((s) => s.ms));
      const fullMs = median(full.map((s) => s.ms));
      printTable(
        `Attach to a session of ${EVENTS.toLocaleString('en')} events (first screen = ack received and folded by the TUI reducer; median of ${RUNS}, interleaved)`,
        ['attach', 'first screen ms', 'ack KB', 'events', 'view items'],
        [
          row(`tail: ${TAIL} (snapshot + tail)`, tail),
          row('full replay (baseline)', full),
          ['ratio tail / full', fmt(tailMs / fullMs, 3), '', '', ''],
          [
            `history page (${PAGE}), scrolling up, median of 10`,
            fmt(median(pages.map((p) => p.ms)), 1),
            fmt(median(pages.map((p) => p.bytes)) / 1024, 0),
            String(PAGE),
            '',
          ],
          [`history page (${PAGE}) at seq ${EVENTS / 2}, cold`, fmt(deep.ms, 1), fmt(deep.bytes / 1024, 0), String(PAGE), ''],
        ],
      );
      console.log(`(server start with this session: ${fmt(loadMs, 0)} ms, the whole log read once at load)`);
    } finally {
      await server.close();
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}
