import {
  buildSystemPrompt,
  ConversationBuilder,
  createFileBaselines,
  createPathSandbox,
  isOffered,
  listModels,
  loadAgentsMd,
  notSetUp,
  runTurn,
  type ProvidersConfig,
} from '@tandem/core';
import type { SessionEngine } from './engine.js';

/** The engine parts from @tandem/core. */
export function defaultEngine(config: ProvidersConfig): SessionEngine {
  return {
    runTurn,
    createConversation: () => new ConversationBuilder(),
    restoreConversation: (state) => ConversationBuilder.restore(state),
    systemPrompt: async ({ cwd, tools, services, now }) =>
      buildSystemPrompt({
        cwd,
        tools: tools.filter((t) => isOffered(t, services)),
        notSetUp: notSetUp(tools, services),
        agentsMd: await loadAgentsMd(cwd),
        now,
      }),
    createPaths: (args) => createPathSandbox(args),
    createBaselines: () => createFileBaselines(),
    listModels: () => listModels(config),
  };
}
