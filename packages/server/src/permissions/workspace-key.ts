import { canonicalWorkspace } from '@tandem/core';

/**
 * The key stored permissions are filed under: the workspace's real path, so a symlinked
 * checkout and its target share decisions. A directory that does not exist (yet) keys by its
 * resolved path. The same canonical path memory directories are keyed by.
 */
export function workspaceKey(dir: string): Promise<string> {
  return canonicalWorkspace(dir);
}
