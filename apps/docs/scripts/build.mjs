// Builds the documentation site: markdown pages from content/ plus reference pages generated
// from the code (protocol from @tandem/shared's schemas, tools from @tandem/tools' list),
// rendered with marked into static HTML under site/.
import { existsSync } from 'node:fs';
import { cp, mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { protocolReference } from './protocol-page.mjs';
import { indexEntry, SEARCH_BOX, SEARCH_SCRIPT } from './search.mjs';
import { renderPage } from './site-markdown.mjs';
import { toolsReference } from './tools-page.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const contentDir = join(here, '..', 'content');
const siteDir = join(here, '..', 'site');

/** Navigation order; generated pages are marked. */
const NAV = [
  ['index', 'Overview'],
  ['getting-started', 'Getting started'],
  ['requirements', 'Requirements'],
  ['architecture', 'Architecture'],
  ['contracts', 'Contracts'],
  ['protocol', 'Wire protocol (generated)'],
  ['cli', 'CLI reference'],
  ['tui', 'The TUI'],
  ['web-viewer', 'The web viewer'],
  ['sharing', 'Share a session'],
  ['entrances', 'Scripts, CI, editors and other agents'],
  ['cluster', 'Running several nodes'],
  ['configuration', 'Configuration'],
  ['tools', 'Tools (generated)'],
  ['safety', 'Sandbox, blacklist, permissions'],
  ['web-tools', 'Web search and fetch'],
  ['calendar', 'Calendar'],
  ['routines', 'Routines'],
  ['messaging', 'Messaging'],
  ['providers', 'Models and providers'],
  ['costs', 'What a session costs'],
  ['context-and-memory', 'Context and memory'],
  ['mcp', 'MCP servers'],
  ['skills', 'Skills'],
  ['packages', 'External packages'],
  ['multi-agent', 'Multi-agent sessions'],
  ['external-agents', 'External agents'],
  ['bridge', 'The reverse bridge'],
  ['self-evolution', 'Self-evolution'],
  ['benchmarks', 'Benchmarks'],
];

function page(title, body, current) {
  const nav = NAV.map(([slug, label]) => `<li${slug === current ? ' class="current"' : ''}><a href="${slug}.html">${label}</a></li>`).join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} — Tandem</title>
<style>
body{font:16px/1.55 system-ui,sans-serif;margin:0;display:flex;color:#1d1f21}
nav{width:15rem;padding:1.5rem;background:#f4f4f2;min-height:100vh;box-sizing:border-box}
nav ul{list-style:none;padding:0} nav li{margin:.35rem 0} nav .current a{font-weight:700}
main{padding:1.5rem 2.5rem;max-width:58rem}
code,pre{font-family:ui-monospace,monospace;font-size:.9em} pre{background:#f6f8fa;padding:1rem;overflow:auto}
table{border-collapse:collapse} td,th{border:1px solid #ddd;padding:.3rem .6rem;vertical-align:top;text-align:left}
h1,h2,h3,h4{position:relative} .anchor{position:absolute;left:-1.1em;text-decoration:none;color:#bbb;visibility:hidden} h1:hover .anchor,h2:hover .anchor,h3:hover .anchor,h4:hover .anchor{visibility:visible}
.search input{width:100%;box-sizing:border-box;padding:.3rem} .search ol{padding-left:1.2rem;font-size:.9em} .search li{margin:.3rem 0}
</style></head>
<body><nav><strong>Tandem</strong>${SEARCH_BOX}<ul>${nav}</ul></nav><main>${body}</main>${SEARCH_SCRIPT}</body></html>
`;
}

async function sources() {
  const pages = new Map();
  for (const file of await readdir(contentDir)) {
    if (file.endsWith('.md')) pages.set(file.slice(0, -3), await readFile(join(contentDir, file), 'utf8'));
  }
  pages.set('protocol', await protocolReference());
  pages.set('tools', await toolsReference());
  return pages;
}

async function main() {
  const pages = await sources();
  const missing = NAV.filter(([slug]) => !pages.has(slug)).map(([slug]) => slug);
  if (missing.length) throw new Error(`docs: no page for ${missing.join(', ')} (add content/<name>.md)`);
  await rm(siteDir, { recursive: true, force: true });
  await mkdir(siteDir, { recursive: true });
  const index = [];
  for (const [slug, markdown] of pages) {
    const title = /^#\s+(.+)$/m.exec(markdown)?.[1] ?? slug;
    const rendered = await renderPage(markdown);
    await writeFile(join(siteDir, `${slug}.html`), page(title, rendered.html, slug));
    await writeFile(join(siteDir, `${slug}.md`), markdown);
    index.push(indexEntry(slug, title, rendered));
  }
  await writeFile(join(siteDir, 'search-index.json'), JSON.stringify(index));
  // Images the pages show (content/images/*.png), copied beside the HTML.
  if (existsSync(join(contentDir, 'images'))) await cp(join(contentDir, 'images'), join(siteDir, 'images'), { recursive: true });
  console.log(`docs: ${pages.size} pages written to ${siteDir}`);
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
