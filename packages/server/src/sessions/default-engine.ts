import { isAbsolute, relative, resolve } from 'node:path';
import { listModels, type FileBaselines, type Message, type ProvidersConfig } from '@tandem/core';
import type { GrantablePaths, SessionEngine } from './engine.js';

/**
 * The engine parts from @tandem/core.
 * TEMPORARY: the loop, prompt, tools and sandbox are not in core yet; these stand-ins keep the
 * server usable and are replaced by core's implementations as they land.
 */
export function defaultEngine(config: ProvidersConfig): SessionEngine {
  return {
    runTurn: () => {
      throw new Error('the agent loop is not available in this build of @tandem/core');
    },
    conversationFromEvents: () => [] as Message[],
    systemPrompt: async ({ cwd }) => `You are Tandem, a coding agent working in ${cwd}.`,
    createPaths: ({ workspace, granted }) => simplePaths(workspace, granted),
    createBaselines: () => noBaselines,
    listModels: () => listModels(config),
  };
}

function simplePaths(workspace: string, granted: string[]): GrantablePaths {
  const roots = [workspace, ...granted];
  return {
    async resolve(path) {
      const abs = resolve(workspace, path);
      if (!roots.some((root) => !relative(root, abs).startsWith('..') && !isAbsolute(relative(root, abs)))) {
        throw new Error(`${path} is outside the workspace ${workspace}`);
      }
      return abs;
    },
    grant(path) {
      const abs = resolve(workspace, path);
      roots.push(abs);
      return abs;
    },
  };
}

const noBaselines: FileBaselines = {
  recordRead: () => undefined,
  assertFresh: async () => undefined,
  recordWrite: () => undefined,
};
