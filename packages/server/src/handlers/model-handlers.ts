import type { ModelInfo } from '@tandem/shared';
import type { HandlerMap } from './dispatch.js';

/** models:list: the visible model catalog. */
export function modelHandlers(listModels: () => ModelInfo[]): HandlerMap {
  return {
    'models:list': () => ({ models: listModels() }),
  };
}
