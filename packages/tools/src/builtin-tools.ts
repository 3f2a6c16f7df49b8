import { assistantTools } from '@tandem/assistant-tools';
import type { AnyTool } from '@tandem/core';
import { codingTools } from '@tandem/coding-tools';

/**
 * Every built-in tool, in the order they are offered to the model. A fresh array each call. Each
 * tool package lists its own tools; a new tool package is one line here.
 */
export function builtinTools(): AnyTool[] {
  return [...codingTools(), ...assistantTools()];
}
