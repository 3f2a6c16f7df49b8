import { htmlLibraries, type HtmlLibraries } from './html-libraries.js';

export interface ReadablePage {
  title: string;
  markdown: string;
  text: string;
  /**
   * The page has next to no text without running its scripts (a client-rendered shell):
   * what we read is not what a browser shows.
   */
  scriptOnly: boolean;
}

/** Below this many characters of visible text, a page with scripts is called a script-only shell. */
const SHELL_TEXT_CHARS = 200;

/**
 * HTML → the page's main content as markdown (Mozilla's Readability picks the article; Turndown
 * writes markdown). Falls back to the whole body when Readability finds no article.
 */
export async function readablePage(html: string, url: string): Promise<ReadablePage> {
  const libraries = await htmlLibraries();
  const { parseHTML, Readability, turndown } = libraries;
  const { document } = parseHTML(html);
  const scripts = document.querySelectorAll('script').length;
  const bodyText = visibleText(document.body?.textContent ?? '');
  const title = (document.querySelector('title')?.textContent ?? '').trim();
  const scriptOnly = scripts > 0 && bodyText.length < SHELL_TEXT_CHARS;

  // Readability changes the document it reads; give it its own copy.
  const article = new Readability(parseHTML(html).document as unknown as ConstructorParameters<typeof Readability>[0], { charThreshold: 100 }).parse();
  const contentHtml = article?.content ?? document.body?.innerHTML ?? '';
  const markdown = turndown.turndown(absolutize(contentHtml, url, libraries)).trim();
  const text = visibleText(article?.textContent ?? bodyText);
  return { title: (article?.title ?? title).trim(), markdown, text, scriptOnly };
}

function visibleText(text: string): string {
  return text
    .replace(/[ \t\f\v\r]+/g, ' ')
    .replace(/\n\s*\n+/g, '\n\n')
    .trim();
}

/** Relative links and images in the article made absolute, so the model can follow them. */
function absolutize(html: string, base: string, { parseHTML }: HtmlLibraries): string {
  const { document } = parseHTML(`<html><body>${html}</body></html>`);
  for (const [selector, attr] of [
    ['a[href]', 'href'],
    ['img[src]', 'src'],
  ] as const) {
    for (const el of document.querySelectorAll(selector)) {
      const value = el.getAttribute(attr);
      if (!value) continue;
      try {
        el.setAttribute(attr, new URL(value, base).href);
      } catch {
        // leave what cannot be resolved as it is
      }
    }
  }
  return document.body.innerHTML;
}
