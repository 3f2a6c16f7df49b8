// Markdown to HTML for the docs site: every heading gets a stable id (GitHub's slugs, so
// `page.html#anchor` links written against GitHub's rendering keep working), links between
// pages point at the HTML pages, and each page's headings and text feed the search index.
import GithubSlugger from 'github-slugger';
import { Marked } from 'marked';

/** `cli.md#tandem-serve` → `cli.html#tandem-serve`, for links to pages of the site (not to http… or files elsewhere). */
export function siteHref(href) {
  return href.replace(/^([a-z0-9-]+)\.md(#|$)/i, '$1.html$2');
}

/** Renders one page; returns its HTML and what the search index keeps of it. */
export async function renderPage(markdown) {
  const slugger = new GithubSlugger();
  const headings = [];
  const marked = new Marked({
    walkTokens(token) {
      if (token.type === 'link') token.href = siteHref(token.href);
    },
    renderer: {
      heading({ tokens, depth, text }) {
        const plain = plainText(text);
        const id = slugger.slug(plain);
        headings.push({ id, text: plain, depth });
        return `<h${depth} id="${id}"><a class="anchor" href="#${id}" aria-hidden="true">#</a>${this.parser.parseInline(tokens)}</h${depth}>\n`;
      },
    },
  });
  const html = await marked.parse(markdown);
  return { html, headings, text: plainText(markdown) };
}

/** Markdown or inline HTML reduced to words (for slugs and the search index). */
export function plainText(markdown) {
  return markdown
    .replace(/```[\s\S]*?```/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/!\[[^\]]*\]\([^)]*\)/g, ' ')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[`*_>#|]/g, ' ')
    .replace(/&[a-z]+;/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}
