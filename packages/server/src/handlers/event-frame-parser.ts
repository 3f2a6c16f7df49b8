import { SESSION_EVENT } from '@tandem/shared';
import { Decoder, Encoder, type Packet, PacketType } from 'socket.io-parser';
import { knownEventJson } from '../sessions/event-json.js';

const EVENT_PREFIX = `${PacketType.EVENT}[${JSON.stringify(SESSION_EVENT)},`;

/**
 * socket.io's own packet encoder, except for the frame of a persisted session event being
 * broadcast: that frame is the same text socket.io would write (`2["session:event",{…}]`), made
 * from the JSON the event's log line was just written with, instead of walking the event for
 * binary parts and stringifying it a second time. Events are plain JSON (their log lines prove
 * it); anything else, and every other packet, goes through the default encoder unchanged.
 */
class SessionEventEncoder extends Encoder {
  override encode(packet: Packet): ReturnType<Encoder['encode']> {
    if (
      packet.type === PacketType.EVENT &&
      packet.id === undefined &&
      (packet.nsp === '/' || !packet.nsp) &&
      Array.isArray(packet.data) &&
      packet.data.length === 2 &&
      packet.data[0] === SESSION_EVENT
    ) {
      const json = knownEventJson(packet.data[1]);
      if (json !== undefined) return [`${EVENT_PREFIX}${json}]`];
    }
    return super.encode(packet);
  }
}

/** The `parser` option of the socket.io server: the default decoder, the encoder above. */
export const eventFrameParser = { Encoder: SessionEventEncoder, Decoder };
