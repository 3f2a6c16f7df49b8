import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { describe, expect, it, vi } from 'vitest';
import { browserSuite } from './browser-suite.js';
import { openViewer, type OpenedPage, pageItemKinds } from './page-helpers.js';
import { sessionOptions, TOKENS, TuiSide } from './server-bed.js';

/**
 * The web viewer in a real browser (Debian's chromium through playwright-core) against a real
 * server on loopback, with a TUI client (the TUI's own client and reducer) beside it.
 */
const suite = browserSuite();
const { setUp, opened } = suite;

async function page(b: Browser, token: string, name: string, viewport?: { width: number; height: number }): Promise<OpenedPage> {
  const view = await openViewer(b, suite.bed().url, token, name, viewport);
  opened.push(view);
  return view;
}

async function tui(name: string, sessionTitle?: string): Promise<{ side: TuiSide; sessionId: string }> {
  const side = new TuiSide(suite.bed().url, name);
  opened.push(side);
  await side.client.ready();
  const { session } = await side.client.request('session:create', sessionOptions(suite.bed(), sessionTitle ?? 'work'));
  await side.client.attach(session.id, 'driver');
  return { side, sessionId: session.id };
}

const tuiKinds = (side: TuiSide) => side.state.items.map((item) => (item.kind === 'run_summary' ? 'summary' : item.kind));

describe('the web viewer in chromium', { timeout: 60_000 }, () => {
  it('lists the sessions and shows a turn streaming live beside a TUI client, with the same fold', async (ctx) => {
    const { browser: b, bed: server } = await setUp(ctx);
    await tui('first-tui', 'alpha');
    const { side, sessionId } = await tui('ana-tui', 'beta');
    const { page: p, problems } = await page(b, TOKENS.view, 'bob-web');

    await expect.poll(() => p.locator('[data-session-id]').count()).toBe(2);
    await p.locator(`[data-session-id="${sessionId}"][class=open]`).waitFor();
    await p.locator('#role[data-role=viewer]').waitFor();

    server.fake.enqueue(
      { toolCalls: [{ name: 'run_command', args: { command: 'echo first-line; read word; echo "second-$word"' } }] },
      { chunks: ['All ', 'done.'] },
    );
    await side.client.request('session:send', { sessionId, text: 'run the two-step command' });
    const asked = await side.until('the permission request', (s) => s.pendingPermissions.length > 0);
    await side.client.request('permission:respond', { sessionId, requestId: asked.pendingPermissions[0]!.requestId, decision: 'allow_once' });

    // Live: the first line is on the page while the command still waits for input (typed by the TUI side).
    const running = p.locator('#transcript .item.tool.running');
    await running.locator('.output.live', { hasText: 'first-line' }).waitFor();
    await expect.poll(() => running.locator('.decision').textContent()).toBe('allowed once by ana-tui');
    await side.client.request('command:input', { sessionId, callId: asked.pendingPermissions[0]!.callId, data: 'line\r' });
    await p.locator('#transcript .item.tool.ok', { hasText: 'second-line' }).waitFor();
    await p.locator('#transcript .item.assistant', { hasText: 'All done.' }).waitFor();
    await p.locator('#transcript .item.summary').waitFor();

    // The same events through the same reducer: the page's transcript is the TUI's, entry for entry.
    await side.until('the end of the turn', (s) => s.turn.phase === 'idle' && s.items.some((i) => i.kind === 'run_summary'));
    expect(await pageItemKinds(p)).toEqual(tuiKinds(side));
    if (process.env.TANDEM_WEB_SCREENSHOT) await p.screenshot({ path: process.env.TANDEM_WEB_SCREENSHOT });
    expect(problems).toEqual([]);
  });

  it('a viewer cannot send or answer: the controls are disabled, and the server refuses anyway', async (ctx) => {
    const { browser: b, bed: server } = await setUp(ctx);
    const { side, sessionId } = await tui('ana-tui');
    const { page: p, problems } = await page(b, TOKENS.view, 'bob-web');
    await p.locator('#role[data-role=viewer]').waitFor();
    expect(await p.locator('textarea[name=message]').isDisabled()).toBe(true);
    expect(await p.locator('#send').isDisabled()).toBe(true);

    server.fake.enqueue({ toolCalls: [{ name: 'run_command', args: { command: 'touch never-by-a-viewer.txt' } }] }, { text: 'Denied, fine.' });
    await side.client.request('session:send', { sessionId, text: 'try it' });
    const allow = p.locator('[data-decision=allow_once]');
    await allow.waitFor();
    expect(await allow.isDisabled()).toBe(true);
    expect(await p.locator('[data-decision=deny_once]').isDisabled()).toBe(true);

    // Someone re-enables the controls by hand: the server still says no.
    await p.evaluate(() => {
      for (const node of document.querySelectorAll('textarea[name=message], #send')) node.removeAttribute('disabled');
    });
    await p.fill('textarea[name=message]', 'let me in');
    await p.click('#send');
    await p.locator('#transcript .item.notice.error', { hasText: 'could not send: forbidden' }).waitFor();
    expect(side.state.items.some((item) => item.kind === 'user' && item.text === 'let me in')).toBe(false);

    await side.client.request('permission:respond', { sessionId, requestId: side.state.pendingPermissions[0]!.requestId, decision: 'deny_once' });
    await p.locator('#transcript .item.tool .decision', { hasText: 'denied once by ana-tui' }).waitFor();
    await expect.poll(() => p.locator('[data-decision]').count()).toBe(0);
    expect(problems).toEqual([]);
  });

  it('a driver answers a permission request and sends a message from a phone-width page', async (ctx) => {
    const { browser: b, bed: server } = await setUp(ctx);
    const { side, sessionId } = await tui('bob-tui');
    const { page: p, problems } = await page(b, TOKENS.control, 'ana-web', { width: 390, height: 760 });
    await p.locator('#role[data-role=driver]').waitFor();

    server.fake.enqueue(
      { toolCalls: [{ name: 'run_command', args: { command: 'touch approved.txt && echo approved-from-the-web' } }] },
      { text: 'Ran it.' },
      { text: 'Hello ana.' },
    );
    await side.client.request('session:send', { sessionId, text: 'run it' });
    await p.click('[data-decision=allow_once]');

    const resolved = await side.until('the answer', (s) => s.lastResolved !== null);
    expect(resolved.lastResolved).toMatchObject({ decision: 'allow_once', by: 'ana-web' });
    await p.locator('#transcript .item.tool .decision', { hasText: 'allowed once by ana-web' }).waitFor();
    await p.locator('#transcript .item.tool.ok', { hasText: 'approved-from-the-web' }).waitFor();
    await side.until('the end of the turn', (s) => s.turn.phase === 'idle' && s.items.some((i) => i.kind === 'assistant' && i.text === 'Ran it.'));

    await p.fill('textarea[name=message]', 'hi from my phone');
    await p.click('#send');
    const heard = await side.until('the page message', (s) => s.items.some((i) => i.kind === 'user' && i.text === 'hi from my phone'));
    expect(heard.items.find((i) => i.kind === 'user' && i.text === 'hi from my phone')).toMatchObject({ by: 'ana-web' });
    await p.locator('#transcript .item.assistant', { hasText: 'Hello ana.' }).waitFor();
    expect(await p.locator('textarea[name=message]').inputValue()).toBe('');
    expect(problems).toEqual([]);
  });

  it('shows model text and tool output as text: markup in them executes nothing', async (ctx) => {
    const { browser: b, bed: server } = await setUp(ctx);
    const { side, sessionId } = await tui('ana-tui');
    const { page: p, problems } = await page(b, TOKENS.view, 'bob-web');
    const evil = '<script>window.__pwned = "script"</script><img src=x onerror="window.__pwned = \'img\'">';
    writeFileSync(join(server.workspace.path, 'evil.html'), `${evil}\n`);
    server.fake.enqueue(
      { toolCalls: [{ name: 'read_file', args: { path: 'evil.html' } }] },
      { text: `Here it is: <img src=y onerror="window.__pwned = 'model'"> ${evil}` },
    );
    await side.client.request('session:send', { sessionId, text: 'show <b>evil.html</b>' });

    await p.locator('#transcript .item.tool.ok .output', { hasText: '<script>window.__pwned = "script"</script>' }).waitFor();
    await p.locator('#transcript .item.assistant', { hasText: '<img src=y onerror=' }).waitFor();
    await p.locator('#transcript .item.user', { hasText: 'show <b>evil.html</b>' }).waitFor();
    expect(await p.locator('#transcript img, #transcript script, #transcript b').count()).toBe(0);
    expect(await p.evaluate(() => (window as unknown as { __pwned?: string }).__pwned)).toBeUndefined();
    expect(problems).toEqual([]);
  });

  it("renders the model's markdown from text nodes: only http(s) links link, nothing loads", async (ctx) => {
    const { browser: b, bed: server } = await setUp(ctx);
    const { side, sessionId } = await tui('ana-tui');
    const { page: p, problems } = await page(b, TOKENS.view, 'bob-web');
    const answer = [
      '## Plan',
      '',
      'Run **all** tests with `pnpm test`, see [the docs](https://example.com/docs) and [this](javascript:window.__pwned=1).',
      '',
      '- first',
      '- second ![pixel](https://example.com/p.png)',
      '',
      '```sh',
      'echo "<b>not bold</b>"',
      '```',
    ].join('\n');
    server.fake.enqueue({ text: answer });
    await side.client.request('session:send', { sessionId, text: 'plan it' });
    const item = p.locator('#transcript .item.assistant', { hasText: 'Run all tests' });
    await item.waitFor();
    expect(await item.locator('.md-heading').textContent()).toBe('Plan');
    expect(await item.locator('strong').textContent()).toBe('all');
    expect(await item.locator('p code').textContent()).toBe('pnpm test');
    expect(await item.locator('li').allInnerTexts()).toEqual(['first', 'second [image: pixel] (https://example.com/p.png)']);
    expect(await item.locator('pre.md-code code').textContent()).toBe('echo "<b>not bold</b>"');
    const links = item.locator('a');
    expect(await links.count()).toBe(1);
    expect(await links.first().getAttribute('href')).toBe('https://example.com/docs');
    expect(await links.first().getAttribute('rel')).toBe('noopener noreferrer');
    expect(await item.textContent()).toContain('this (javascript:window.__pwned=1)');
    expect(await p.locator('#transcript img, #transcript script, #transcript b').count()).toBe(0);
    expect(problems).toEqual([]);
  });

  it('reconnects after a server restart and resumes from the last seq it saw', async (ctx) => {
    const { browser: b, bed: server } = await setUp(ctx);
    const { side, sessionId } = await tui('ana-tui');
    const { page: p, problems } = await page(b, TOKENS.control, 'ana-web');
    server.fake.enqueue({ text: 'first answer' }, { text: 'second answer' });
    await side.client.request('session:send', { sessionId, text: 'before the restart' });
    await p.locator('#transcript .item.assistant', { hasText: 'first answer' }).waitFor();
    side.close();

    // Record every connection state the page shows, to see it lose the server and come back.
    await p.evaluate(() => {
      const status = document.getElementById('connection')!;
      const seen: string[] = [];
      (window as unknown as { __statuses: string[] }).__statuses = seen;
      new MutationObserver(() => seen.push(status.dataset.status ?? '')).observe(status, { attributes: true, attributeFilter: ['data-status'] });
    });
    // While the server is down the page keeps trying; the restart waits for one refused attempt,
    // so every run goes through the page's retry, not only a run on a slow machine.
    const refused = new RegExp(
      `^console: WebSocket connection to '${server.url.replace(/^http/, 'ws').replace(/[.]/g, '\\.')}/socket\\.io/[^']*' failed: .*ERR_CONNECTION_REFUSED$`,
    );
    await server.restart(() => vi.waitFor(() => expect(problems.some((problem) => refused.test(problem))).toBe(true), { timeout: 30_000, interval: 50 }));
    await p.waitForFunction(() => {
      const seen = (window as unknown as { __statuses: string[] }).__statuses;
      return seen.includes('reconnecting') && seen.at(-1) === 'connected';
    });

    const { side: again } = { side: new TuiSide(server.url, 'ana-tui-2') };
    opened.push(again);
    await again.client.ready();
    await again.client.attach(sessionId, 'driver');
    await again.client.request('session:send', { sessionId, text: 'after the restart' });
    await p.locator('#transcript .item.assistant', { hasText: 'second answer' }).waitFor();
    // Re-attached from its last seq: nothing it had was replayed twice.
    expect(await p.locator('#transcript .item.assistant', { hasText: 'first answer' }).count()).toBe(1);
    expect(await p.locator('#transcript .item.user').allTextContents()).toEqual(['ana-tuibefore the restart', 'ana-tui-2after the restart']);
    // Chromium logs every refused WebSocket as a console error, which the page cannot prevent:
    // those lines are expected here, and only those.
    expect(problems.filter((problem) => !refused.test(problem))).toEqual([]);
  });
});
