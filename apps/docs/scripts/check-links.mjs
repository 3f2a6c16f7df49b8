// Every internal link of the built site: its page exists and, with `#anchor`, an element of that
// id is on it. Returns the broken ones as `page: href (why)`. Run after build.mjs.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export function brokenLinks(siteDir) {
  const pages = readdirSync(siteDir).filter((file) => file.endsWith('.html'));
  const ids = new Map(pages.map((file) => [file, new Set([...readFileSync(join(siteDir, file), 'utf8').matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]))]));
  const broken = [];
  for (const file of pages) {
    const html = readFileSync(join(siteDir, file), 'utf8');
    for (const [, href] of html.matchAll(/\s(?:href|src)="([^"]+)"/g)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('//')) continue; // http(s):, mailto: …
      const [path, anchor] = href.split('#');
      const target = path === '' ? file : path;
      if (target.endsWith('.md')) {
        broken.push(`${file}: ${href} (a link to a .md file: point it at the HTML page)`);
        continue;
      }
      if (!existsSync(join(siteDir, target))) {
        broken.push(`${file}: ${href} (no such page)`);
        continue;
      }
      if (anchor && target.endsWith('.html') && !ids.get(target)?.has(decodeURIComponent(anchor))) broken.push(`${file}: ${href} (no #${anchor} on ${target})`);
    }
  }
  return broken;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const broken = brokenLinks(join(import.meta.dirname, '..', 'site'));
  for (const line of broken) console.log(line);
  process.exit(broken.length > 0 ? 1 : 0);
}
