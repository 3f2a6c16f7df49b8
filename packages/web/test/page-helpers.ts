import type { Browser, Page } from 'playwright-core';

export interface OpenedPage {
  page: Page;
  /** Console errors, page errors and CSP violations seen so far: a working page has none. */
  problems: string[];
  close(): Promise<void>;
}

export interface PageOptions {
  viewport?: { width: number; height: number };
  /** Accept the server's self-signed certificate (HTTPS and WSS). */
  ignoreHTTPSErrors?: boolean;
}

/** A fresh browser context with one blank page that records its problems. */
export async function newPage(browser: Browser, options: PageOptions = {}): Promise<OpenedPage> {
  const context = await browser.newContext({
    viewport: options.viewport ?? { width: 1100, height: 800 },
    ignoreHTTPSErrors: options.ignoreHTTPSErrors ?? false,
  });
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  return { page, problems, close: () => context.close() };
}

/** A fresh browser context on the page, signed in with `token` as `name`. */
export async function openViewer(
  browser: Browser,
  url: string,
  token: string,
  name: string,
  viewport?: { width: number; height: number },
): Promise<OpenedPage> {
  const opened = await newPage(browser, viewport ? { viewport } : {});
  const { page } = opened;
  await page.goto(url);
  await page.fill('input[name=token]', token);
  await page.fill('input[name=name]', name);
  await page.click('#login button[type=submit]');
  await connected(opened);
  return opened;
}

/** Waits until the page says `connected`; else fails with what it shows instead. */
export async function connected({ page, problems }: OpenedPage): Promise<void> {
  try {
    await page.locator('#connection[data-status=connected]').waitFor();
  } catch (err) {
    const shown = await page.evaluate(() => ({
      connection: document.getElementById('connection')?.textContent,
      loginError: document.getElementById('login-error')?.textContent,
    }));
    throw new Error(`the page did not connect: ${JSON.stringify(shown)}; problems: ${problems.join(' | ') || 'none'} (${String(err)})`);
  }
}

/** The kinds of the transcript entries on the page, in order (user, assistant, tool, notice, summary). */
export async function pageItemKinds(page: Page): Promise<string[]> {
  return page.locator('#transcript > li.item').evaluateAll((items) => items.map((item) => item.classList[1] ?? ''));
}
