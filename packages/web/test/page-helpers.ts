import type { Browser, Page } from 'playwright-core';

export interface OpenedPage {
  page: Page;
  /** Console errors, page errors and CSP violations seen so far: a working page has none. */
  problems: string[];
  close(): Promise<void>;
}

/** A fresh browser context on the page, signed in with `token` as `name`. */
export async function openViewer(browser: Browser, url: string, token: string, name: string, viewport = { width: 1100, height: 800 }): Promise<OpenedPage> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  await page.goto(url);
  await page.fill('input[name=token]', token);
  await page.fill('input[name=name]', name);
  await page.click('#login button[type=submit]');
  try {
    await page.locator('#connection[data-status=connected]').waitFor();
  } catch (err) {
    const shown = await page.evaluate(() => ({
      connection: document.getElementById('connection')?.textContent,
      loginError: document.getElementById('login-error')?.textContent,
    }));
    throw new Error(`the page did not connect: ${JSON.stringify(shown)}; problems: ${problems.join(' | ') || 'none'} (${String(err)})`);
  }
  return { page, problems, close: () => context.close() };
}

/** The kinds of the transcript entries on the page, in order (user, assistant, tool, notice, summary). */
export async function pageItemKinds(page: Page): Promise<string[]> {
  return page.locator('#transcript > li.item').evaluateAll((items) => items.map((item) => item.classList[1] ?? ''));
}
