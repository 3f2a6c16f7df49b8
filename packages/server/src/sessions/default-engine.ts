import { createFileBaselines, createPathSandbox, listModels, runTurn, type Message, type ProvidersConfig } from '@tandem/core';
import type { SessionEngine } from './engine.js';

/**
 * The engine parts from @tandem/core.
 * TEMPORARY stand-ins until core has them: `conversationFromEvents` (a restarted session starts
 * with an empty model conversation; its event history is intact) and the system prompt builder.
 */
export function defaultEngine(config: ProvidersConfig): SessionEngine {
  return {
    runTurn,
    conversationFromEvents: () => [] as Message[],
    systemPrompt: async ({ cwd }) =>
      `You are Tandem, a coding agent working in ${cwd}. Use the tools to read, change and run things there; end with one short summary.`,
    createPaths: (args) => createPathSandbox(args),
    createBaselines: () => createFileBaselines(),
    listModels: () => listModels(config),
  };
}
