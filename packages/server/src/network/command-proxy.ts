import { lookup } from 'node:dns/promises';
import { createServer as createHttpServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, createServer, isIP, type Server, type Socket } from 'node:net';
import { rm } from 'node:fs/promises';
import type { Duplex } from 'node:stream';
import { hostPort, normalizeHost } from './host-patterns.js';
import { isLocalAddress, isLocalName } from './local-addresses.js';
import type { ConnectionRequest, NetworkVerdict } from './network-decider.js';
import { readBytes, socksHandshake, socksReply, SOCKS_REPLY } from './socks5.js';

export interface CommandProxyOptions {
  /** Where to listen (a Unix socket, bound into the command's sandbox). */
  socketPath: string;
  /** The command line this proxy serves (every question names it). */
  command: string;
  decide(request: ConnectionRequest, signal: AbortSignal): Promise<NetworkVerdict>;
  /** The ports of the server running the command: never reachable on any address of this machine. */
  serverPorts(): readonly number[];
  /** The command's end (cancel, timeout): a question still open is given up. */
  signal?: AbortSignal;
}

export interface CommandProxy {
  close(): Promise<void>;
  /** One sentence per host:port refused, for the tool result. */
  refusals(): string[];
}

const FIRST_BYTE_SOCKS5 = 0x05;

/**
 * One command's door to the network: an HTTP proxy (CONNECT for TLS, absolute-URI requests for
 * plain HTTP) and a SOCKS5 proxy on the same Unix socket, told apart by the first byte. Each
 * host:port is decided once per command (a question is shared by every connection waiting on
 * it; `allow_once` lasts for the command); refused connections end at once with the reason.
 * Names are resolved only after a connection is allowed (a refused name is never looked up), and
 * the address connected to is the one checked against the server's port.
 */
export async function startCommandProxy(options: CommandProxyOptions): Promise<CommandProxy> {
  const decided = new Map<string, Promise<NetworkVerdict>>();
  const refused = new Map<string, string>();
  const sockets = new Set<Duplex>();
  const stop = new AbortController();
  const onCommandEnd = () => stop.abort();
  options.signal?.addEventListener('abort', onCommandEnd, { once: true });

  /** Where to connect for host:port, or the reason it is refused. */
  const admit = async (rawHost: string, port: number): Promise<{ address: string } | { refusal: string }> => {
    const host = normalizeHost(rawHost);
    const target = hostPort(host, port);
    const refuse = (reason: string) => {
      refused.set(target, reason);
      return { refusal: `Tandem refused the connection to ${target}: ${reason}` };
    };
    if (!host || !Number.isInteger(port) || port < 1 || port > 65535) return refuse('not a host and port');
    const ownPort = options.serverPorts().includes(port);
    const serverRefusal = 'it is the port of the Tandem server that runs this command, which commands can never reach';
    if (ownPort && isLocalName(host)) return refuse(serverRefusal);
    const key = target;
    let verdict = decided.get(key);
    if (!verdict) {
      verdict = options.decide({ host, port, command: options.command }, stop.signal).catch((err: Error) => ({ allow: false, reason: err.message }));
      decided.set(key, verdict);
    }
    const answer = await verdict;
    if (!answer.allow) return refuse(answer.reason);
    let address: string;
    try {
      address = isIP(host) ? host : (await lookup(host)).address;
    } catch (err) {
      return { refusal: `cannot resolve ${host}: ${(err as Error).message}` };
    }
    if (ownPort && isLocalAddress(address)) return refuse(serverRefusal);
    return { address };
  };

  const http = createHttpServer();
  http.on('connect', (req: IncomingMessage, client: Duplex, head: Buffer) => {
    sockets.add(client);
    client.on('error', () => undefined);
    const { host, port } = splitAuthority(req.url ?? '');
    void admit(host, port).then((admitted) => {
      if ('refusal' in admitted) return void client.end(refusalResponse(admitted.refusal));
      const upstream = connect({ host: admitted.address, port });
      sockets.add(upstream);
      upstream.once('connect', () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        if (head.length > 0) upstream.write(head);
        upstream.pipe(client);
        client.pipe(upstream);
      });
      upstream.on('error', (err) => {
        if (upstream.connecting) client.end(errorResponse(502, `Tandem could not connect to ${hostPort(host, port)}: ${err.message}`));
        else client.destroy();
      });
      client.on('close', () => upstream.destroy());
    });
  });
  http.on('request', (req: IncomingMessage, res: ServerResponse) => void forward(req, res, admit));
  http.on('clientError', (_err, socket) => socket.destroy());

  const server: Server = createServer((socket: Socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
    socket.pause();
    void readBytes(socket, 1).then(async (first) => {
      if (!first) return void socket.destroy();
      if (first[0] !== FIRST_BYTE_SOCKS5) {
        socket.unshift(first);
        http.emit('connection', socket);
        socket.resume();
        return;
      }
      const target = await socksHandshake(socket);
      if (!target) return void socket.destroy();
      const admitted = await admit(target.host, target.port);
      if ('refusal' in admitted) return socksReply(socket, SOCKS_REPLY.notAllowed);
      const upstream = connect({ host: admitted.address, port: target.port });
      sockets.add(upstream);
      upstream.once('connect', () => {
        socksReply(socket, SOCKS_REPLY.ok);
        upstream.pipe(socket);
        socket.pipe(upstream);
        socket.resume();
      });
      upstream.on('error', () => (upstream.connecting ? socksReply(socket, SOCKS_REPLY.refused) : socket.destroy()));
      socket.on('close', () => upstream.destroy());
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.socketPath, () => resolve());
  });

  return {
    refusals: () => [...refused].map(([target, reason]) => `${target}: ${reason}`),
    async close() {
      stop.abort();
      options.signal?.removeEventListener('abort', onCommandEnd);
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(options.socketPath, { force: true });
    },
  };
}

/** A plain-HTTP request through the proxy (`GET http://host:port/path`): decided, then forwarded. */
async function forward(
  req: IncomingMessage,
  res: ServerResponse,
  admit: (host: string, port: number) => Promise<{ address: string } | { refusal: string }>,
): Promise<void> {
  let url: URL;
  try {
    url = new URL(req.url ?? '');
  } catch {
    res.writeHead(400, { 'content-type': 'text/plain' }).end('Tandem network proxy: send absolute http:// URLs (this is a proxy)\n');
    return;
  }
  if (url.protocol !== 'http:') {
    res.writeHead(400, { 'content-type': 'text/plain' }).end(`Tandem network proxy: ${url.protocol} is not proxied as a plain request; use CONNECT\n`);
    return;
  }
  const port = url.port ? Number(url.port) : 80;
  const admitted = await admit(url.hostname, port);
  if ('refusal' in admitted) {
    res.writeHead(403, { 'content-type': 'text/plain', 'x-tandem-refused': 'network' }).end(`${admitted.refusal}\n`);
    return;
  }
  const headers = { ...req.headers };
  delete headers['proxy-connection'];
  delete headers['proxy-authorization'];
  const upstream = httpRequest({ host: admitted.address, port, method: req.method, path: `${url.pathname}${url.search}`, headers }, (reply) => {
    res.writeHead(reply.statusCode ?? 502, reply.headers);
    reply.pipe(res);
  });
  upstream.on('error', (err) => {
    if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' }).end(`Tandem could not reach ${hostPort(url.hostname, port)}: ${err.message}\n`);
    else res.destroy();
  });
  req.pipe(upstream);
}

function splitAuthority(authority: string): { host: string; port: number } {
  const bracket = /^\[([^\]]+)\]:(\d+)$/.exec(authority);
  if (bracket) return { host: bracket[1]!, port: Number(bracket[2]) };
  const colon = authority.lastIndexOf(':');
  if (colon <= 0) return { host: authority, port: 443 };
  return { host: authority.slice(0, colon), port: Number(authority.slice(colon + 1)) };
}

function refusalResponse(message: string): string {
  return errorResponse(403, message);
}

function errorResponse(status: number, message: string): string {
  const body = `${message}\n`;
  const reason = status === 403 ? 'Forbidden' : 'Bad Gateway';
  return `HTTP/1.1 ${status} ${reason}\r\ncontent-type: text/plain\r\nx-tandem-refused: network\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`;
}
