import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SessionEvent, SessionInfo } from '@tandem/shared';
import { type Action, initialState, reduceAll } from '@tandem/tui/state';
import { request, startBenchServer } from './bench-server.js';
import { createLongSession } from './long-session-log.js';
import { measureStarts, startRows } from './session-start.js';
import { fmt, median } from './stats.js';
import { printTable } from './table.js';

const EVENTS = 100_000;
const TAIL = 200;
const PAGE = 300;
const RUNS = 5;
const START_RUNS = 4;
/** About 128 turns of this log fill 80 % of a 128k-token window (~3.9 KB of text per turn). */
const COMPACT_EVERY_TURNS = 128;

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
  const compactedDir = await mkdtemp(join(tmpdir(), 'tandem-bench-attach-compacted-'));
  try {
    const { session } = await createLongSession(dataDir, EVENTS);
    // Server start with that session: the snapshot a close left vs the whole log read.
    const starts = await measureStarts(dataDir, session.id, START_RUNS);
    // The same, with the compactions a model's window forces (a 128k-token window at 80 %).
    const compacted = await createLongSession(compactedDir, EVENTS, COMPACT_EVERY_TURNS);
    const compactedStarts = await measureStarts(compactedDir, compacted.session.id, START_RUNS);
    const server = await startBenchServer({ dataDir });
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
      printTable(
        `Server start with a session of ${EVENTS.toLocaleString('en')} events (createApplication + listen, the session loaded; median of ${START_RUNS}, interleaved)`,
        ['session', 'start', 'ms', 'file KB'],
        [...startRows('never compacted (as above)', starts), ...startRows(`compacted every ${COMPACT_EVERY_TURNS} turns`, compactedStarts)],
      );
    } finally {
      await server.close();
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
    await rm(compactedDir, { recursive: true, force: true });
  }
}
