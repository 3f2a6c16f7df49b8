import { z } from 'zod';
import { defineTool, ToolError } from '@tandem/core';
import { searchBackendConfigs } from './search-config.js';
import { createWebSearcher, WebSearchError, type WebSearcher } from './web-searcher.js';
import { webSearcherOf } from './web-services.js';
import { capSummary, oneLine } from '@tandem/shared';

export const webSearchTool = defineTool({
  name: 'web_search',
  description: `Searches the web and returns titles, URLs and snippets. Use it only for facts that may have changed after your training (releases, versions, news, current docs, prices) or that you do not know; answer from what you know otherwise. Read a result in full with web_fetch.`,
  schema: z.object({
    query: z.string().min(1).max(500).describe('What to search for'),
    max_results: z.number().int().min(1).max(20).optional().describe('How many results (default 5)'),
  }),
  danger: 'safe',
  readOnly: true,
  kind: 'search',
  summary: (args) => capSummary(oneLine(args.query)),
  async execute(args, ctx) {
    const searcher = webSearcherOf(ctx.services) ?? defaultSearcher();
    try {
      const answer = await searcher.search(args.query, args.max_results ?? 5, ctx.signal);
      const head = [
        `${answer.results.length} result${answer.results.length === 1 ? '' : 's'} from ${answer.backend}${answer.cached ? ' (cached)' : ''} for "${args.query}"`,
      ];
      for (const note of answer.notes) head.push(`Note: ${note}; used the next backend.`);
      const lines = answer.results.map((r, i) => `${i + 1}. ${r.title || r.url}\n   ${r.url}${r.snippet ? `\n   ${r.snippet}` : ''}`);
      return [...head, '', ...lines].join('\n');
    } catch (err) {
      if (err instanceof WebSearchError) throw new ToolError(err.message);
      throw err;
    }
  },
});

let fallback: WebSearcher | undefined;

/** A host that configures nothing gets DuckDuckGo (or TANDEM_WEB_SEARCH) with one shared cache. */
function defaultSearcher(): WebSearcher {
  fallback ??= createWebSearcher(searchBackendConfigs(undefined, process.env), { env: process.env });
  return fallback;
}

export { searchBackendConfigs };
