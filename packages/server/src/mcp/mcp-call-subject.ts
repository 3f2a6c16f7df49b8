import type { DeclaredSubject } from '@tandem/core';

/** Argument names that hold the one file or directory an MCP tool acts on. */
const PATH_ARGS = ['path', 'target'] as const;

/**
 * What a rule about an MCP tool's call is about. An MCP tool says nothing of its arguments'
 * meaning, so its own arguments are read: a `path` (or `target`) is a file rule's subject, an
 * http(s) `url` a web address's; anything else is ruled on as the whole tool.
 */
export function mcpCallSubject(args: Record<string, unknown>): DeclaredSubject | undefined {
  const target = PATH_ARGS.map((k) => args[k]).find((v): v is string => typeof v === 'string' && v.trim() !== '');
  if (target !== undefined) return { path: target.trim() };
  if (typeof args.url === 'string') return { url: args.url };
  return undefined;
}
