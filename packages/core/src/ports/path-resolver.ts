/**
 * Resolves a path a tool wants to touch, or throws a `SandboxError` saying which rule refused.
 * The result is canonical (absolute, symlinks resolved); tools use only the returned path.
 */
export interface PathResolver {
  resolve(path: string, intent: 'read' | 'write'): Promise<string>;
  /**
   * Optional: every rule except "inside the workspace or a granted directory", for tools whose
   * target is deliberately elsewhere (self_clone). Without it, such tools refuse to run.
   */
  resolveOutsideWorkspace?(path: string, intent: 'read' | 'write'): Promise<string>;
}
