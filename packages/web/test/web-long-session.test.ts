import { appendUserMessages } from '@tandem/testkit';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { browserSuite } from './browser-suite.js';
import { openViewer } from './page-helpers.js';
import { type ServerBed, sessionOptions, TOKENS, TuiSide } from './server-bed.js';

/**
 * A long session in the page (Debian's chromium through playwright-core, a real server): the
 * page attaches with a tail, not the whole log, and scrolling to the top of the transcript
 * brings the older events page by page, above what is on screen, without moving it.
 */
const { setUp, opened } = browserSuite();

/** Sessions created empty, then `count` user messages each appended to their logs while the server is stopped. */
async function longSessions(server: ServerBed, counts: Record<string, number>): Promise<Record<string, string>> {
  const side = new TuiSide(server.url, 'setup');
  await side.client.ready();
  const ids: Record<string, string> = {};
  for (const title of Object.keys(counts)) ids[title] = (await side.client.request('session:create', sessionOptions(server, title))).session.id;
  side.close();
  await server.restart(async () => {
    for (const [title, count] of Object.entries(counts)) {
      await appendUserMessages(server.dataDir, ids[title] as string, count);
    }
  });
  return ids;
}

/** The messages in the page's transcript, in order, as numbers (`question N`). */
function shownQuestions(page: Page): Promise<number[]> {
  return page
    .locator('#transcript > li.item.user .text')
    .evaluateAll((nodes) => nodes.map((node) => Number(/^question (\d+)$/.exec(node.textContent ?? '')?.[1] ?? -1)));
}

/** Where the message `question N` is, relative to the transcript box's top edge (px). */
function topOf(page: Page, n: number): Promise<number | null> {
  return page.evaluate((wanted) => {
    const list = document.getElementById('transcript') as HTMLElement;
    const node = [...list.querySelectorAll('li.item.user .text')].find((text) => text.textContent === `question ${wanted}`);
    return node ? node.getBoundingClientRect().top - list.getBoundingClientRect().top : null;
  }, n);
}

const scrollToTop = (page: Page) =>
  page.evaluate(() => {
    (document.getElementById('transcript') as HTMLElement).scrollTop = 0;
  });

describe('a long session in the web viewer', { timeout: 120_000 }, () => {
  it('opens with the last messages and brings older pages above on scrolling to the top, keeping the view in place', async (ctx) => {
    const { browser: b, bed: server } = await setUp(ctx);
    const ids = await longSessions(server, { long: 1500, short: 250 });
    const view = await openViewer(b, server.url, TOKENS.view, 'bob-web');
    opened.push(view);
    const { page: p, problems } = view;
    await p.locator(`[data-session-id="${ids.long}"]`).click();
    await p.locator('#transcript .item.user .text', { hasText: /^question 1500$/ }).waitFor();

    // The tail: the newest messages, far from the first, and the bottom is on screen.
    const first = await shownQuestions(p);
    expect(first.at(-1)).toBe(1500);
    expect(first.length).toBeLessThan(400);
    const oldest = first[0] as number;
    expect(oldest).toBeGreaterThan(1000);
    expect(first).toEqual(Array.from({ length: first.length }, (_, i) => oldest + i));
    expect(await p.locator('#transcript .history-marker').getAttribute('data-history')).toBe('more');
    const bottomGap = await p.evaluate(() => {
      const list = document.getElementById('transcript') as HTMLElement;
      return list.scrollHeight - list.scrollTop - list.clientHeight;
    });
    expect(bottomGap).toBeLessThan(40);

    // To the top: the message before the oldest arrives above it, and the oldest stays where it was.
    await scrollToTop(p);
    const before = await topOf(p, oldest);
    expect(before).not.toBeNull();
    await p.locator('#transcript .item.user .text', { hasText: new RegExp(`^question ${oldest - 1}$`) }).waitFor({ state: 'attached' });
    await expect.poll(() => p.locator('#transcript .history-marker').getAttribute('data-history'), { timeout: 30_000 }).toBe('more');
    const after = await topOf(p, oldest);
    expect(Math.abs((after as number) - (before as number))).toBeLessThanOrEqual(1);
    expect(await topOf(p, oldest - 1)).toBeLessThan(after as number);
    const paged = await shownQuestions(p);
    expect(paged.length).toBeGreaterThan(first.length);
    expect(paged).toEqual(Array.from({ length: paged.length }, (_, i) => (paged[0] as number) + i));

    // Page after page, until the page holds what it can: it says the rest stays in the log.
    await expect
      .poll(
        async () => {
          await scrollToTop(p);
          return p.locator('#transcript .history-marker').getAttribute('data-history');
        },
        { timeout: 60_000 },
      )
      .toBe('capped');
    const capped = await shownQuestions(p);
    expect(capped.at(-1)).toBe(1500);
    expect(capped).toEqual(Array.from({ length: capped.length }, (_, i) => (capped[0] as number) + i));

    // A shorter session reaches its start: the first message under a "start of session" line.
    await p.locator(`[data-session-id="${ids.short}"]`).click();
    await p.locator('#transcript .item.user .text', { hasText: /^question 250$/ }).waitFor();
    expect((await shownQuestions(p))[0]).toBeGreaterThan(1);
    await expect
      .poll(
        async () => {
          await scrollToTop(p);
          return p.locator('#transcript .history-marker').getAttribute('data-history');
        },
        { timeout: 30_000 },
      )
      .toBe('start');
    expect(await p.locator('#transcript .history-marker').textContent()).toBe('start of session');
    expect(await shownQuestions(p)).toEqual(Array.from({ length: 250 }, (_, i) => i + 1));
    expect(problems).toEqual([]);
  });
});
