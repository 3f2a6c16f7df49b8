import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script of the site's build, without types
import { brokenLinks } from '../scripts/check-links.mjs';

const docsDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const siteDir = join(docsDir, 'site');
const scratch = mkdtempSync(join(tmpdir(), 'tandem-docs-links-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('the docs site’s links', () => {
  execFileSync(process.execPath, [join(docsDir, 'scripts/build.mjs')], { cwd: docsDir, stdio: 'pipe' });

  it('every internal link and anchor resolves, and none points at a .md file', () => {
    expect(brokenLinks(siteDir)).toEqual([]);
    for (const file of readdirSync(siteDir).filter((f) => f.endsWith('.html'))) {
      expect(readFileSync(join(siteDir, file), 'utf8'), file).not.toMatch(/href="[a-z0-9-]+\.md(#[^"]*)?"/);
    }
  });

  it('headings carry stable ids (GitHub’s slugs), which page#anchor links reach', () => {
    const cli = readFileSync(join(siteDir, 'cli.html'), 'utf8');
    expect(cli).toContain('<h2 id="the-local-server-status-stop-restart">');
    expect(readFileSync(join(siteDir, 'configuration.html'), 'utf8')).toContain('href="cli.html#the-local-server-status-stop-restart"');
  });

  it('the checker finds a missing page, a missing anchor and a .md link', () => {
    writeFileSync(
      join(scratch, 'a.html'),
      '<h1 id="top">A</h1><a href="b.html#nowhere">x</a><a href="c.html">y</a><a href="a.md">z</a><a href="#top">t</a><a href="https://example.com/x.md">e</a>',
    );
    writeFileSync(join(scratch, 'b.html'), '<h1 id="here">B</h1>');
    expect(brokenLinks(scratch)).toEqual([
      'a.html: b.html#nowhere (no #nowhere on b.html)',
      'a.html: c.html (no such page)',
      'a.html: a.md (a link to a .md file: point it at the HTML page)',
    ]);
  });

  it('has a search box on every page over an index of every page and its headings', () => {
    const index = JSON.parse(readFileSync(join(siteDir, 'search-index.json'), 'utf8')) as Array<{
      page: string;
      title: string;
      headings: Array<{ id: string; text: string }>;
      text: string;
    }>;
    const pages = readdirSync(siteDir).filter((f) => f.endsWith('.html'));
    expect(index.map((entry) => entry.page).sort()).toEqual(pages.sort());
    const tui = index.find((entry) => entry.page === 'tui.html');
    expect(tui?.text).toContain('ctrl-c');
    for (const entry of index) {
      const html = readFileSync(join(siteDir, entry.page), 'utf8');
      expect(html).toContain('id="search"');
      for (const heading of entry.headings) expect(html, `${entry.page}#${heading.id}`).toContain(`id="${heading.id}"`);
    }
  });
});
