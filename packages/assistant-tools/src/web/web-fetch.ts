import { z } from 'zod';
import { defineTool, ToolError } from '@tandem/core';
import { guardedGet, type GuardedResponse } from './guarded-get.js';
import { readablePage } from './readable-page.js';
import { webFetchSettingsOf } from './web-services.js';
import { capSummary, oneLine } from '@tandem/shared';

const HTML_TYPES = /^(text\/html|application\/xhtml\+xml)/i;
const TEXT_TYPES = /^(text\/|application\/(json|xml|javascript|x-yaml|yaml|ld\+json)|[^;]*\+(json|xml))/i;

export const webFetchTool = defineTool({
  name: 'web_fetch',
  description: `Fetches one web page (http or https) and returns its main content as readable markdown (format "text" for plain text, "html" for the raw HTML). Follows up to 5 redirects, reads at most 5 MB, and says when a page was cut or looks like a script-only shell whose content needs a browser.
Use it to read a page whose address you know (docs, an issue, an article); use web_search to find pages. It cannot reach the user's local network or this machine.`,
  schema: z.object({
    url: z.string().min(1).describe('The full http:// or https:// address'),
    format: z.enum(['markdown', 'text', 'html']).optional().describe('markdown (default), text or html'),
  }),
  danger: 'medium',
  readOnly: true,
  kind: 'fetch',
  subject: (args) => ({ url: args.url }),
  summary: (args) => capSummary(oneLine(args.url)),
  async execute(args, ctx) {
    const settings = webFetchSettingsOf(ctx.services);
    let response: GuardedResponse;
    try {
      response = await guardedGet(args.url, { ...settings, signal: ctx.signal });
    } catch (err) {
      throw new ToolError(`could not fetch ${args.url}: ${err instanceof Error ? err.message : String(err)}`);
    }
    const format = args.format ?? 'markdown';
    const lines = [header(response)];
    if (response.status >= 400) {
      throw new ToolError(`${lines[0]}\nthe server answered ${response.status}; check the address or try another page`);
    }
    const type = response.contentType;
    const raw = response.body.toString('utf8');
    let body: string;
    if (HTML_TYPES.test(type) || (type === '' && /<html[\s>]/i.test(raw))) {
      if (format === 'html') body = raw;
      else {
        const page = await readablePage(raw, response.url);
        if (page.title) lines.push(`Title: ${page.title}`);
        if (page.scriptOnly) {
          lines.push(
            'Note: this page looks like a script-only shell: almost no text without running its JavaScript, so what is below is not what a browser shows. Look for an API, a static version or another source.',
          );
        }
        body = format === 'text' ? page.text : page.markdown;
      }
    } else if (TEXT_TYPES.test(type) || type === '') {
      body = raw;
    } else {
      throw new ToolError(`${lines[0]}\n${type} is not text; web_fetch reads web pages and text files only`);
    }
    if (response.truncated) lines.push(`Note: the page is larger than ${mb(settings.maxBytes)}; only its first ${mb(settings.maxBytes)} were read.`);
    if (body.length > settings.maxChars) {
      lines.push(`Note: the content is ${body.length} characters; the first ${settings.maxChars} are shown.`);
      body = body.slice(0, settings.maxChars);
    }
    return `${lines.join('\n')}\n\n${body}`;
  },
});

function header(r: GuardedResponse): string {
  const via = r.redirects.length > 0 ? ` (after ${r.redirects.length} redirect${r.redirects.length === 1 ? '' : 's'})` : '';
  return `${r.url}${via}: ${r.status} ${r.contentType || 'unknown type'}, ${r.body.length} bytes`;
}

function mb(bytes: number): string {
  return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;
}
