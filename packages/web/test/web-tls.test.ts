import { readFileSync } from 'node:fs';
import { makeSelfSignedCertificate, makeTempDir } from '@tandem/testkit';
import { describe, expect, it } from 'vitest';
import { browserSuite } from './browser-suite.js';
import { connected, newPage } from './page-helpers.js';
import { sessionOptions, TuiSide } from './server-bed.js';

/**
 * The web viewer over HTTPS (`tandem serve --tls-cert --tls-key`): a server with a self-signed
 * certificate made by openssl in the test serves the page, which connects back over WSS and
 * opens a share link's session, in Debian's chromium told to accept that certificate.
 */
const { setUp, opened } = browserSuite();

describe('the web viewer over HTTPS', { timeout: 60_000 }, () => {
  it('serves the page over HTTPS, connects over WSS and drives a shared session', async (ctx) => {
    const dir = await makeTempDir('tandem-web-tls-');
    try {
      const cert = await makeSelfSignedCertificate(dir.path);
      const { browser: b, bed: server } = await setUp(ctx, { tls: { cert: cert.certPem, key: readFileSync(cert.keyFile, 'utf8') } });
      expect(server.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);

      const side = new TuiSide(server.url, 'ana-tui', undefined, cert.certPem);
      opened.push(side);
      await side.client.ready();
      const { session } = await side.client.request('session:create', sessionOptions(server, 'over tls'));
      await side.client.attach(session.id, 'driver');
      const { token } = await side.client.request('share:create', { sessionId: session.id, name: 'gina', role: 'driver' });
      const link = `${server.url}/?session=${session.id}#token=${token}`;

      // Really TLS with this certificate: a browser that does not trust it gets no page.
      const untrusting = await newPage(b);
      opened.push(untrusting);
      await expect(untrusting.page.goto(link)).rejects.toThrow(/ERR_CERT/);

      const view = await newPage(b, { ignoreHTTPSErrors: true });
      opened.push(view);
      const { page: p, problems } = view;
      const sockets: string[] = [];
      p.on('websocket', (socket) => sockets.push(socket.url()));
      await p.goto(link);
      await connected(view);
      await p.locator(`[data-session-id="${session.id}"].open`).waitFor();
      expect(p.url()).toBe(`${server.url}/?session=${session.id}`);
      expect(sockets.length).toBeGreaterThan(0);
      for (const url of sockets) expect(url).toMatch(new RegExp(`^wss://127\\.0\\.0\\.1:${server.port}/socket\\.io/`));

      server.fake.enqueue({ text: 'Heard you over TLS.' });
      await p.fill('textarea[name=message]', 'hello over wss');
      await p.click('#send');
      const heard = await side.until('the page message', (s) => s.items.some((i) => i.kind === 'user' && i.text === 'hello over wss'));
      expect(heard.items.find((i) => i.kind === 'user' && i.text === 'hello over wss')).toMatchObject({ by: 'gina' });
      await p.locator('#transcript .item.assistant', { hasText: 'Heard you over TLS.' }).waitFor();
      expect(problems).toEqual([]);
    } finally {
      await dir.cleanup();
    }
  });
});
