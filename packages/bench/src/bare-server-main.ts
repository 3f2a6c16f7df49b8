// The start-up bench's baseline for `tandem serve`: a bare socket.io server (the same version)
// on a free loopback port, printing one line once it listens.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from 'socket.io';

const http = createServer();
new Server(http, { serveClient: false });
http.listen(0, '127.0.0.1', () => console.log(`listening on ${(http.address() as AddressInfo).port}`));
