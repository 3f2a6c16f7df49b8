// Test support for the web tools: a real HTTP server on loopback with named routes.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Route = (req: IncomingMessage, res: ServerResponse, body: string) => void;

export interface WebTestServer {
  url: string;
  port: number;
  /** Requests seen, as `METHOD path`. */
  requests: string[];
  close(): Promise<void>;
}

export async function startWebServer(routes: Record<string, Route>): Promise<WebTestServer> {
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      requests.push(`${req.method} ${req.url}`);
      const route = routes[path];
      if (!route) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
        return;
      }
      route(req, res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function html(body: string, status = 200): Route {
  return (_req, res) => res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' }).end(body);
}

export function json(value: unknown, status = 200): Route {
  return (_req, res) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
}
