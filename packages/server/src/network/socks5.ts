import type { Socket } from 'node:net';

/** SOCKS5 reply codes the proxy uses (RFC 1928). */
export const SOCKS_REPLY = {
  ok: 0x00,
  fail: 0x01,
  notAllowed: 0x02,
  hostUnreachable: 0x04,
  refused: 0x05,
  commandNotSupported: 0x07,
  addressNotSupported: 0x08,
} as const;

/** Reads exactly `n` bytes from a paused socket (undefined when it ends first). */
export function readBytes(socket: Socket, n: number): Promise<Buffer | undefined> {
  return new Promise((resolve) => {
    const done = (value: Buffer | undefined) => {
      socket.off('readable', attempt);
      socket.off('end', ended);
      socket.off('close', ended);
      socket.off('error', ended);
      resolve(value);
    };
    const ended = () => done(undefined);
    const attempt = () => {
      const chunk = socket.read(n) as Buffer | null;
      if (chunk) done(chunk);
    };
    socket.on('readable', attempt);
    socket.once('end', ended);
    socket.once('close', ended);
    socket.once('error', ended);
    attempt();
  });
}

/**
 * The SOCKS5 greeting and CONNECT request of a client whose first byte (0x05) was already read:
 * no authentication, CONNECT only. Returns the target, or undefined after answering a failure.
 */
export async function socksHandshake(socket: Socket): Promise<{ host: string; port: number } | undefined> {
  const count = await readBytes(socket, 1);
  if (!count) return undefined;
  const methods = await readBytes(socket, count[0]!);
  if (!methods) return undefined;
  if (!methods.includes(0x00)) {
    socket.end(Buffer.from([0x05, 0xff]));
    return undefined;
  }
  socket.write(Buffer.from([0x05, 0x00]));
  const head = await readBytes(socket, 4);
  if (!head || head[0] !== 0x05) return undefined;
  if (head[1] !== 0x01) {
    socksReply(socket, SOCKS_REPLY.commandNotSupported);
    return undefined;
  }
  let host: string;
  if (head[3] === 0x01) {
    const ip = await readBytes(socket, 4);
    if (!ip) return undefined;
    host = [...ip].join('.');
  } else if (head[3] === 0x03) {
    const length = await readBytes(socket, 1);
    const name = length && (await readBytes(socket, length[0]!));
    if (!name) return undefined;
    host = name.toString('latin1');
  } else if (head[3] === 0x04) {
    const ip = await readBytes(socket, 16);
    if (!ip) return undefined;
    host = Array.from({ length: 8 }, (_, i) => ip.readUInt16BE(i * 2).toString(16)).join(':');
  } else {
    socksReply(socket, SOCKS_REPLY.addressNotSupported);
    return undefined;
  }
  const port = await readBytes(socket, 2);
  if (!port) return undefined;
  return { host, port: port.readUInt16BE(0) };
}

/** Answers the CONNECT request; any code but `ok` also closes the connection. */
export function socksReply(socket: Socket, code: number): void {
  const reply = Buffer.from([0x05, code, 0x00, 0x01, 0, 0, 0, 0, 0, 0]);
  if (code === SOCKS_REPLY.ok) socket.write(reply);
  else socket.end(reply);
}
