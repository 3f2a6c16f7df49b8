import type { Readability } from '@mozilla/readability';
import type { parseHTML } from 'linkedom';
import type TurndownService from 'turndown';
import { loadOnce } from '@tandem/ai';

export interface HtmlLibraries {
  parseHTML: typeof parseHTML;
  Readability: typeof Readability;
  /** Markdown writer with Tandem's settings (ATX headings, fenced code, `-` bullets, no scripts). */
  turndown: TurndownService;
}

/**
 * The HTML parser, Readability and Turndown, loaded on first use: together ~32 MB of resident
 * memory (linkedom alone ~25 MB) that a server whose sessions never read a web page should not
 * carry.
 */
export const htmlLibraries = loadOnce(load);

async function load(): Promise<HtmlLibraries> {
  const [{ parseHTML }, { Readability }, { default: Turndown }] = await Promise.all([import('linkedom'), import('@mozilla/readability'), import('turndown')]);
  const turndown = new Turndown({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
  turndown.remove(['script', 'style', 'noscript', 'iframe']);
  return { parseHTML, Readability, turndown };
}
