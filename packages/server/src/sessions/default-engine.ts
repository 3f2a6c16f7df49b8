import { buildSystemPrompt, ConversationBuilder, isOffered, loadInstructions, notSetUp, runTurn } from '@tandem/core';
import { createFileBaselines, createPathSandbox } from '@tandem/coding-tools';
import { listModels, type ProvidersConfig } from '@tandem/ai';
import type { SessionEngine } from './engine.js';

/** The engine parts from @tandem/core; `dataDir` holds the user's own AGENTS.md; `providersConfig` is config.json as it is now (models:list). */
export function defaultEngine(config: ProvidersConfig, options: { dataDir?: string; providersConfig?: () => ProvidersConfig } = {}): SessionEngine {
  return {
    runTurn,
    createConversation: () => new ConversationBuilder(),
    restoreConversation: (state) => ConversationBuilder.restore(state),
    systemPrompt: async ({ cwd, tools, services, now }) =>
      buildSystemPrompt({
        cwd,
        tools: tools.filter((t) => isOffered(t, services)),
        notSetUp: notSetUp(tools, services),
        instructions: loadInstructions({ cwd, dataDir: options.dataDir }),
        now,
      }),
    createPaths: (args) => createPathSandbox(args),
    createBaselines: () => createFileBaselines(),
    listModels: () => listModels(options.providersConfig?.() ?? config),
  };
}
