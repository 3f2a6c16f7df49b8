import type { Browser } from 'playwright-core';
import { afterAll, afterEach, beforeAll, type TestContext } from 'vitest';
import { launchChromium } from './browser.js';
import { buildPage } from './page-build.js';
import { type BedOptions, type ServerBed, startServerBed } from './server-bed.js';

export interface BrowserSuite {
  /** A fresh server for this test with the built page, and the shared browser (skipped loudly without one). */
  setUp(ctx: TestContext, options?: BedOptions): Promise<{ browser: Browser; bed: ServerBed }>;
  /** The server of the running test. */
  bed(): ServerBed;
  /** Pages and clients to close after the running test, before its server stops. */
  opened: Array<{ close(): unknown }>;
}

/**
 * The set-up every web viewer test file shares, registered in the calling file: the page built
 * once, one headless chromium for the file (a console warning says why when there is none), and
 * per test a server that stops after the pages and clients opened on it are closed.
 */
export function browserSuite(): BrowserSuite {
  let browser: Browser | undefined;
  let webDir = '';
  let bed: ServerBed | undefined;
  const opened: BrowserSuite['opened'] = [];

  beforeAll(async () => {
    webDir = (await buildPage()).dir;
    const launched = await launchChromium();
    if ('browser' in launched) browser = launched.browser;
    else console.warn(`\n*** WEB VIEWER BROWSER TESTS SKIPPED: ${launched.reason} ***\n`);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
  });

  afterEach(async () => {
    for (const thing of opened.splice(0)) await thing.close();
    await bed?.stop();
    bed = undefined;
  });

  return {
    async setUp(ctx, options) {
      if (!browser) ctx.skip();
      bed = await startServerBed(webDir, options);
      return { browser: browser as Browser, bed };
    },
    bed() {
      if (!bed) throw new Error('no server: call setUp(ctx) first');
      return bed;
    },
    opened,
  };
}
