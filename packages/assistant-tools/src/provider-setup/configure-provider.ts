import { z } from 'zod';
import type { ProviderConfigurator } from './provider-configurator.js';
import { defineTool, ToolError, type ToolServices } from '@tandem/core';

/** configure_provider's host service: where keys and endpoints are stored. */
export interface ProviderSetupServices {
  providers?: ProviderConfigurator;
}

declare module '@tandem/core' {
  interface ToolServices extends ProviderSetupServices {}
}

function configuratorOf(services: ToolServices): ProviderConfigurator {
  if (!services.providers) throw new ToolError('this host cannot change providers from the chat; edit config.json in the Tandem data directory');
  return services.providers;
}

export const configureProviderTool = defineTool({
  name: 'configure_provider',
  description: `Adds or updates a model provider from the chat: its API key (stored encrypted, never shown again, not to you either), base URL, and the default model for new sessions. The user approves every call. Use it only when the user gives you a key or endpoint to set up; prefer telling them about environment variables when they ask how keys work.`,
  schema: z.object({
    provider: z.string().min(1).max(40).describe('openai, anthropic, gemini, groq, openrouter, xai, ollama or llamacpp'),
    apiKey: z.string().min(1).max(500).optional().describe('The key, exactly as the user gave it'),
    baseURL: z.string().url().optional().describe('Endpoint, for a proxy or a local server'),
    model: z.string().min(3).max(200).optional().describe('provider/model to use for new sessions, e.g. openai/gpt-4.1-mini'),
  }),
  danger: 'dangerous',
  readOnly: false,
  kind: 'other',
  alwaysAsk: true,
  summary: (args) => (args.model ? `${args.provider} (${args.model})` : args.provider),
  secretArgs: ['apiKey'],
  async execute(args, ctx) {
    if (args.apiKey === undefined && args.baseURL === undefined && args.model === undefined) {
      throw new ToolError('nothing to change: give apiKey, baseURL or model');
    }
    try {
      return await configuratorOf(ctx.services).configure(args);
    } catch (err) {
      if (err instanceof ToolError) throw err;
      throw new ToolError(err instanceof Error ? err.message : String(err));
    }
  },
});
