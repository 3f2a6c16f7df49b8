import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { SHARE_ROLE_SUMMARY, type ShareRole } from '@tandem/shared';
import { FakeClock } from '@tandem/testkit';
import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { browserSuite } from './browser-suite.js';
import { connected, newPage, type OpenedPage } from './page-helpers.js';
import { sessionOptions, TOKENS, TuiSide } from './server-bed.js';

/**
 * Share links in the web viewer (contract "Sharing one session"): `BASE/?session=ID#token=TOKEN`
 * opens that one session with the share's rights, in Debian's chromium against a real server,
 * with the host beside it in the TUI's own client. Real turns: the fake model server's tool
 * calls ask for permission through the real gate.
 */
const suite = browserSuite();
const { setUp, opened } = suite;

/** The host: a TUI client with the control token, attached as driver to a new session. */
async function host(title = 'deploy'): Promise<{ side: TuiSide; sessionId: string }> {
  const side = new TuiSide(suite.bed().url, 'ana-tui');
  opened.push(side);
  await side.client.ready();
  const { session } = await side.client.request('session:create', sessionOptions(suite.bed(), title));
  await side.client.attach(session.id, 'driver');
  return { side, sessionId: session.id };
}

/** A share of the session made by the host, and its web link as `tandem share` prints it. */
async function share(side: TuiSide, sessionId: string, name: string, role: ShareRole): Promise<{ id: string; token: string; link: string }> {
  const { share: made, token } = await side.client.request('share:create', { sessionId, name, role });
  return { id: made.id, token, link: `${suite.bed().url}/?session=${sessionId}#token=${token}` };
}

/** The share link opened in a fresh browser context; every request line the page makes is recorded. */
async function openLink(b: Browser, link: string, viewport?: { width: number; height: number }): Promise<OpenedPage & { requests: string[] }> {
  const view = await newPage(b, viewport ? { viewport } : {});
  opened.push(view);
  const requests: string[] = [];
  view.page.on('request', (request) => requests.push(request.url()));
  view.page.on('websocket', (socket) => requests.push(socket.url()));
  await view.page.goto(link);
  return { ...view, requests };
}

describe('share links in the web viewer', { timeout: 60_000 }, () => {
  it('a viewer link opens its one session: no message box, no answers, a line saying what it may do, and the token gone from the address', async (ctx) => {
    const { browser: b, bed: server } = await setUp(ctx);
    const { side, sessionId } = await host('deploy');
    // A newer session on the same server: the page must open the shared one, and list no other.
    await side.client.request('session:create', sessionOptions(server, 'not-shared'));
    const { token, link } = await share(side, sessionId, 'erin', 'viewer');

    const view = await openLink(b, link);
    const { page: p, problems, requests } = view;
    await connected(view);
    await p.locator(`[data-session-id="${sessionId}"].open`).waitFor();
    await p.locator('#role[data-role=viewer][data-kind=share]').waitFor();

    // The token left the address bar at once and was never in a request line.
    expect(p.url()).toBe(`${server.url}/?session=${sessionId}`);
    expect(await p.evaluate(() => location.hash)).toBe('');
    expect(requests.length).toBeGreaterThan(0);
    expect(requests.filter((url) => url.includes(token))).toEqual([]);
    expect(await p.evaluate(() => document.documentElement.outerHTML)).not.toContain(token);

    // One session listed, the token form never shown, no message box, and what a viewer may do.
    expect(await p.locator('[data-session-id]').count()).toBe(1);
    expect(await p.locator('#sessions-title').textContent()).toBe('Shared session');
    expect(await p.locator('input[name=token]').isVisible()).toBe(false);
    expect(await p.locator('textarea[name=message]').isVisible()).toBe(false);
    expect(await p.locator('#send').isVisible()).toBe(false);
    expect(await p.locator('#access').textContent()).toContain(SHARE_ROLE_SUMMARY.viewer);
    expect(await p.locator('#role').textContent()).toBe('viewer (share: erin)');

    // Who is here, with roles, on the page and at the host.
    await p.locator('#presence [data-client-name=erin][data-client-role=viewer]').waitFor();
    await p.locator('#presence [data-client-name=ana-tui][data-client-role=driver]').waitFor();
    const seen = await side.until('erin in the presence', (s) => s.presence.some((client) => client.name === 'erin'));
    expect(seen.presence.find((client) => client.name === 'erin')).toMatchObject({ role: 'viewer', shareRole: 'viewer' });

    // A permission request: the viewer sees what is asked, without a button.
    server.fake.enqueue({ toolCalls: [{ name: 'run_command', args: { command: 'touch not-by-erin.txt' } }] }, { text: 'Denied, fine.' });
    await side.client.request('session:send', { sessionId, text: 'touch it' });
    await p.locator('#permissions .permission', { hasText: 'touch not-by-erin.txt' }).waitFor();
    expect(await p.locator('[data-decision]').count()).toBe(0);
    expect(await p.locator('#permissions .hint').textContent()).toMatch(/answers this/);
    const asked = await side.until('the permission request', (s) => s.pendingPermissions.length > 0);
    await side.client.request('permission:respond', { sessionId, requestId: asked.pendingPermissions[0]!.requestId, decision: 'deny_once' });
    await p.locator('#transcript .item.tool .decision', { hasText: 'denied once by ana-tui' }).waitFor();
    await p.locator('#transcript .item.assistant', { hasText: 'Denied, fine.' }).waitFor();
    expect(await p.locator('#permissions .permission').count()).toBe(0);
    expect(problems).toEqual([]);
  });

  it('an approver answers a real permission request as its name, with no message box and no "always allow"', async (ctx) => {
    const { browser: b, bed: server } = await setUp(ctx);
    const { side, sessionId } = await host();
    const { link } = await share(side, sessionId, 'carla', 'approver');
    const view = await openLink(b, link);
    const { page: p, problems } = view;
    await connected(view);
    await p.locator('#role[data-role=approver][data-kind=share]').waitFor();
    expect(await p.locator('textarea[name=message]').isVisible()).toBe(false);
    expect(await p.locator('#stop').isVisible()).toBe(false);
    expect(await p.locator('#access').textContent()).toContain(SHARE_ROLE_SUMMARY.approver);
    await p.locator('#presence [data-client-name=carla][data-client-role=approver]').waitFor();

    server.fake.enqueue(
      { toolCalls: [{ name: 'run_command', args: { command: 'touch approved-by-carla.txt && echo approved-by-carla' } }] },
      { text: 'Made it.' },
    );
    await side.client.request('session:send', { sessionId, text: 'make the file' });
    const allow = p.locator('[data-decision=allow_once]');
    await allow.waitFor();
    expect(await allow.isEnabled()).toBe(true);
    // A share may not make a lasting rule for the workspace: that answer is not offered.
    expect(await p.locator('[data-decision]').evaluateAll((buttons) => buttons.map((button) => (button as HTMLElement).dataset.decision))).toEqual([
      'allow_once',
      'allow_session',
      'deny_once',
      'deny_forever',
    ]);
    await allow.click();

    const resolved = await side.until('the answer', (s) => s.lastResolved !== null);
    expect(resolved.lastResolved).toMatchObject({ decision: 'allow_once', by: 'carla' });
    await p.locator('#transcript .item.tool .decision', { hasText: 'allowed once by carla' }).waitFor();
    await p.locator('#transcript .item.tool.ok', { hasText: 'approved-by-carla' }).waitFor();
    await p.locator('#transcript .item.assistant', { hasText: 'Made it.' }).waitFor();
    expect(existsSync(join(server.workspace.path, 'approved-by-carla.txt'))).toBe(true);
    expect(problems).toEqual([]);
  });

  it("a driver types and stops turns from a phone-width page; its message arrives with the share's name", async (ctx) => {
    const { browser: b, bed: server } = await setUp(ctx);
    const { side, sessionId } = await host();
    const { link } = await share(side, sessionId, 'dave', 'driver');
    const view = await openLink(b, link, { width: 390, height: 760 });
    const { page: p, problems } = view;
    await connected(view);
    await p.locator('#role[data-role=driver][data-kind=share]').waitFor();
    await p.locator('textarea[name=message]:enabled').waitFor();
    expect(await p.locator('#access').textContent()).toContain(SHARE_ROLE_SUMMARY.driver);

    server.fake.enqueue({ text: 'Hello dave.' }, { toolCalls: [{ name: 'run_command', args: { command: 'touch never-run.txt' } }] });
    await p.fill('textarea[name=message]', 'hi from dave');
    await p.click('#send');
    const heard = await side.until('the page message', (s) => s.items.some((i) => i.kind === 'user' && i.text === 'hi from dave'));
    expect(heard.items.find((i) => i.kind === 'user' && i.text === 'hi from dave')).toMatchObject({ by: 'dave' });
    await p.locator('#transcript .item.assistant', { hasText: 'Hello dave.' }).waitFor();
    await side.until('the end of the first turn', (s) => s.turn.phase === 'idle' && s.items.some((i) => i.kind === 'assistant' && i.text === 'Hello dave.'));

    // A turn waiting for permission: the driver may answer (not "always"), and stops it instead.
    await p.fill('textarea[name=message]', 'touch it');
    await p.click('#send');
    await p.locator('[data-decision=allow_once]').waitFor();
    expect(await p.locator('[data-decision=allow_forever]').count()).toBe(0);
    await p.locator('#stop:enabled').click();
    await side.until(
      'the cancelled turn',
      (s) => s.turn.phase === 'idle' && s.pendingPermissions.length === 0 && s.items.some((i) => i.kind === 'notice' && /turn cancelled/.test(i.text)),
    );
    await expect.poll(() => p.locator('[data-decision]').count()).toBe(0);
    await p.locator('#stop:disabled').waitFor();
    expect(existsSync(join(server.workspace.path, 'never-run.txt'))).toBe(false);
    expect(problems).toEqual([]);
  });

  it('revoking the share ends the page at once and says by whom; the same link is refused from then on', async (ctx) => {
    const { browser: b } = await setUp(ctx);
    const { side, sessionId } = await host();
    const { id, link } = await share(side, sessionId, 'frank', 'driver');
    const view = await openLink(b, link);
    const { page: p, problems } = view;
    await connected(view);
    await p.locator('textarea[name=message]:enabled').waitFor();
    await p.locator('#presence [data-client-name=frank][data-client-role=driver]').waitFor();

    await side.client.request('share:revoke', { id });
    await p.locator('#connection[data-status=refused]').waitFor();
    const ended = p.locator('#ended');
    await ended.waitFor();
    expect(await ended.textContent()).toMatch(/^Your share of this session was revoked by ana-tui; .* This page stopped/);
    expect(await p.locator('textarea[name=message]').isVisible()).toBe(false);
    expect(await p.locator('#access').isVisible()).toBe(false);
    expect(await p.locator('#refresh').isDisabled()).toBe(true);
    // Who is here is not known any more: the line is gone rather than stale.
    expect(await p.locator('#presence [data-client-name]').count()).toBe(0);
    expect(problems).toEqual([]);

    // The link again, in a fresh browser: refused, and the page says what that can mean.
    const again = await openLink(b, link);
    const error = again.page.locator('#login-error');
    await expect.poll(() => error.textContent()).toMatch(/share link was refused: the share was revoked or has expired, or the link is wrong/);
    expect(await again.page.locator('input[name=token]').isVisible()).toBe(true);
    expect(await again.page.locator('input[name=token]').inputValue()).toBe('');
    expect(again.page.url()).toBe(`${suite.bed().url}/?session=${sessionId}`);
    expect(await again.page.locator('#app').isVisible()).toBe(false);
    expect(again.problems).toEqual([]);
  });

  it('a share that expires ends the page with a sentence saying so', async (ctx) => {
    // The server's clock is a fake one: the share expires when the test moves it, not after a wait.
    const clock = new FakeClock({ start: Date.now() });
    const { browser: b } = await setUp(ctx, { clock });
    const { side, sessionId } = await host();
    const { share: made, token } = await side.client.request('share:create', { sessionId, name: 'hana', role: 'viewer', expiresInSec: 30 * 60 });
    const view = await openLink(b, `${suite.bed().url}/?session=${sessionId}#token=${token}`);
    const { page: p, problems } = view;
    await connected(view);
    await p.locator(`[data-session-id="${sessionId}"].open`).waitFor();
    // The access line says until when (the page's own clock and locale write the time).
    const until = await p.evaluate((iso) => new Date(iso).toLocaleString(), made.expiresAt ?? '');
    expect(await p.locator('#access').textContent()).toBe(`viewer: ${SHARE_ROLE_SUMMARY.viewer} (until ${until})`);

    await clock.advance(30 * 60 * 1000);
    await p.locator('#connection[data-status=refused]').waitFor();
    expect(await p.locator('#ended').textContent()).toMatch(/^Your share of this session expired; ask its host for a new one .* This page stopped/);
    expect(await p.locator('#connection').textContent()).toBe('share ended');
    expect(problems).toEqual([]);
  });

  it('with ?session=ID a token typed into the form opens that session, not the newest; a wrong token is refused with a sentence', async (ctx) => {
    const { browser: b, bed: server } = await setUp(ctx);
    const { side, sessionId: first } = await host('first');
    const { session: newer } = await side.client.request('session:create', sessionOptions(server, 'newer'));

    const view = await newPage(b);
    opened.push(view);
    const { page: p, problems } = view;
    await p.goto(`${server.url}/?session=${first}`);
    await p.fill('input[name=token]', 'not-a-token-of-this-server');
    await p.click('#login button[type=submit]');
    await expect.poll(() => p.locator('#login-error').textContent()).toMatch(/^This server refused the token\. Use its control token/);

    await p.fill('input[name=token]', TOKENS.control);
    await p.fill('input[name=name]', 'ana-web');
    await p.click('#login button[type=submit]');
    await connected(view);
    await p.locator(`[data-session-id="${first}"].open`).waitFor();
    expect(await p.locator(`[data-session-id="${newer.id}"]`).count()).toBe(1);
    await p.locator('#role[data-role=driver][data-kind=control]').waitFor();
    await p.locator('#presence [data-client-name=ana-web][data-client-role=driver]').waitFor();
    expect(await p.locator('#sessions-title').textContent()).toBe('Sessions');
    expect(await p.locator('textarea[name=message]').isEnabled()).toBe(true);
    expect(problems).toEqual([]);
  });
});
