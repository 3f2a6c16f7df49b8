import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SESSION_EVENT, type SessionEvent } from '@tandem/shared';
import { makeTempDir, type TempDir } from '@tandem/testkit';
import { Encoder, PacketType } from 'socket.io-parser';
import { eventJson, knownEventJson } from '../sessions/event-json.js';
import { SessionLog } from '../sessions/session-log.js';
import { eventFrameParser } from './event-frame-parser.js';

const event = (seq: number, data = `line ${seq} — “ü”`): SessionEvent => ({
  sessionId: 's',
  seq,
  ts: '2026-01-01T00:00:00.000Z',
  type: 'command_output',
  callId: 'c',
  data,
});
const framed = (data: unknown[], extra: { id?: number; nsp?: string } = {}) => ({ type: PacketType.EVENT, nsp: '/', data, ...extra });

describe('eventFrameParser', () => {
  const ours = new eventFrameParser.Encoder();
  const theirs = new Encoder();

  it("writes a persisted event's frame from its log line, exactly as socket.io's encoder would", () => {
    const e = event(1);
    const line = eventJson(e);
    const packet = framed([SESSION_EVENT, e]);
    expect(ours.encode(packet)).toEqual(theirs.encode(packet));
    // The line really is what goes out: a frame built from it, not from the object.
    const decoy = event(2);
    eventJson(decoy);
    decoy.seq = 99;
    expect(ours.encode(framed([SESSION_EVENT, decoy]))[0]).toContain('"seq":2');
    expect(line).toBe(JSON.stringify(e));
  });

  it('leaves every other packet to the default encoder', () => {
    const unknown = event(3); // no line made: an ephemeral event
    for (const packet of [
      framed([SESSION_EVENT, unknown]),
      framed([SESSION_EVENT, event(4)], { id: 7 }),
      framed(['other', event(5)]),
      framed([SESSION_EVENT, event(6)], { nsp: '/x' }),
    ]) {
      expect(ours.encode(packet)).toEqual(theirs.encode(packet));
    }
    const buffer = framed(['blob', Buffer.from('bytes')]);
    expect(ours.encode(buffer)).toEqual(theirs.encode(buffer));
  });
});

describe("the event log's listener", () => {
  let dir: TempDir;
  beforeEach(async () => {
    dir = await makeTempDir('tandem-frame-');
  });
  afterEach(async () => {
    await dir.cleanup();
  });

  it('sees each written event with its line known, and the line is forgotten after', async () => {
    const log = new SessionLog(join(dir.path, 'events.jsonl'), () => undefined);
    const seen: Array<string | undefined> = [];
    log.onVisible((e) => seen.push(knownEventJson(e)));
    const events = [event(1), event(2)];
    for (const e of events) log.append(e);
    await log.flush();
    expect(seen).toEqual(events.map((e) => JSON.stringify(e)));
    expect(events.map((e) => knownEventJson(e))).toEqual([undefined, undefined]);
    await log.close();
  });
});
