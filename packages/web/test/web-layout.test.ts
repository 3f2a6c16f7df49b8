import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { browserSuite } from './browser-suite.js';
import { openViewer } from './page-helpers.js';
import { sessionOptions, TOKENS, TuiSide } from './server-bed.js';

/**
 * The transcript's layout after a turn with long and failing command output (a failing `npm
 * test` seen from the web viewer): every item stays inside its own box, no two items overlap,
 * an output block stays inside its card (scrollable), and an answer in a session without agents
 * carries no agent label.
 */
const suite = browserSuite();
const { setUp, opened } = suite;

interface Box {
  top: number;
  bottom: number;
  left: number;
  right: number;
  what: string;
}

/** Every transcript item's box, and every output block's box with the box of the card holding it. */
function layout(page: Page): Promise<{ items: Box[]; outputs: Array<{ output: Box; card: Box }> }> {
  return page.evaluate(() => {
    const box = (el: Element, what: string) => {
      const r = el.getBoundingClientRect();
      return { top: r.top, bottom: r.bottom, left: r.left, right: r.right, what };
    };
    const list = document.getElementById('transcript') as HTMLElement;
    const items = [...list.querySelectorAll(':scope > li.item')].map((li, i) => box(li, `${i}:${li.className}:${(li.textContent ?? '').slice(0, 40)}`));
    // Outputs on screen (a folded-away block inside a closed <details> is not drawn).
    const outputs = [...list.querySelectorAll(':scope > li.item .output')]
      .filter((out) => out.checkVisibility())
      .map((out) => {
        const card = out.closest('li.item') as Element;
        return { output: box(out, 'output'), card: box(card, card.className) };
      });
    return { items, outputs };
  });
}

describe('the transcript’s layout', { timeout: 120_000 }, () => {
  for (const viewport of [
    { width: 1100, height: 800 },
    { width: 420, height: 700 },
  ]) {
    it(`keeps long and failing outputs inside their cards, no two items overlapping (${viewport.width}×${viewport.height})`, async (ctx) => {
      const { browser, bed } = await setUp(ctx);
      const side = new TuiSide(bed.url, 'ana-tui');
      opened.push(side);
      await side.client.ready();
      const { session } = await side.client.request('session:create', sessionOptions(bed, 'layout'));
      await side.client.attach(session.id, 'driver');
      const failing =
        'for i in $(seq 1 150); do echo "  ✓ test $i passes with a rather long name that wraps on a phone: src/module-$i/feature.spec.ts"; done; ' +
        'echo "  ✗ test 151 fails"; echo "AssertionError: expected 2 to be 3"; echo "npm ERR! Test failed. See above for more details."; exit 1';
      const long = `printf '%s\\n' ${Array.from({ length: 60 }, (_, i) => `"line-${i}-${'x'.repeat(180)}"`).join(' ')}`;
      bed.fake.enqueue(
        { toolCalls: [{ name: 'run_command', args: { command: failing } }] },
        { toolCalls: [{ name: 'run_command', args: { command: long } }] },
        {
          text: `The test run failed: **test 151** expected 2 to be 3.\n\n${'A long explanation that wraps. '.repeat(40)}\n\n\`\`\`\n${'a code line that is very long '.repeat(10)}\n\`\`\``,
        },
      );
      const view = await openViewer(browser, bed.url, TOKENS.view, 'bob-web', viewport);
      opened.push(view);
      const { page } = view;
      await page.locator(`[data-session-id="${session.id}"]`).click();

      await side.client.request('session:send', { sessionId: session.id, text: 'run the tests' });
      for (let answered = 0; answered < 2; answered++) {
        const asked = await side.until('a permission request', (s) => s.pendingPermissions.length > 0);
        const request = asked.pendingPermissions[0]!;
        await side.client.request('permission:respond', { sessionId: session.id, requestId: request.requestId, decision: 'allow_once' });
        await side.until('the answer to take effect', (s) => !s.pendingPermissions.some((p) => p.requestId === request.requestId));
      }
      await side.until('the end of the turn', (s) => s.turn.phase === 'idle' && s.items.some((i) => i.kind === 'run_summary'));
      await page.locator('#transcript .item.summary').waitFor();
      await page.locator('#transcript .item.tool.error', { hasText: 'npm ERR! Test failed' }).waitFor();

      const { items, outputs } = await layout(page);
      expect(items.length).toBeGreaterThanOrEqual(5);
      for (let i = 1; i < items.length; i++) {
        const above = items[i - 1]!;
        const below = items[i]!;
        expect(below.top, `"${below.what}" starts above the end of "${above.what}"`).toBeGreaterThanOrEqual(above.bottom - 0.5);
      }
      expect(outputs.length).toBeGreaterThanOrEqual(2);
      for (const { output, card } of outputs) {
        expect(output.top).toBeGreaterThanOrEqual(card.top - 0.5);
        expect(output.bottom, `an output spills out of its card ${card.what}`).toBeLessThanOrEqual(card.bottom + 0.5);
        expect(output.right).toBeLessThanOrEqual(card.right + 0.5);
      }
      // The failed output is folded to its last lines; it unfolds whole, scrolling inside its card.
      const failed = page.locator('#transcript .item.tool.error');
      await failed.locator('.output.result', { hasText: 'npm ERR! Test failed' }).waitFor();
      const unfold = failed.locator('details.more summary', { hasText: /^show all \d+ lines$/ });
      expect(Number((await unfold.textContent())?.match(/\d+/)?.[0])).toBeGreaterThanOrEqual(153);
      await unfold.click();
      const full = failed.locator('.output.full');
      await full.waitFor();
      expect(await full.textContent()).toContain('test 1 passes');
      const scrolls = await full.evaluate((el) => ({ scrollable: el.scrollHeight > el.clientHeight, overflow: getComputedStyle(el).overflowY }));
      expect(scrolls).toEqual({ scrollable: true, overflow: 'auto' });
      const unfolded = await layout(page);
      for (let i = 1; i < unfolded.items.length; i++) expect(unfolded.items[i]!.top).toBeGreaterThanOrEqual(unfolded.items[i - 1]!.bottom - 0.5);
      for (const { output, card } of unfolded.outputs)
        expect(output.bottom, `an unfolded output spills out of ${card.what}`).toBeLessThanOrEqual(card.bottom + 0.5);
      // No agents in this session: no agent label on any answer.
      expect(await page.locator('#transcript .agent').count()).toBe(0);
      expect(view.problems).toEqual([]);
    });
  }
});
