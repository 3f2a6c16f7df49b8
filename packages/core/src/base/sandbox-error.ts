import { ToolError } from './tool-error.js';

export type SandboxRule =
  | 'invalid_path'
  | 'parent_escape'
  | 'outside_workspace'
  | 'system_directory'
  | 'credential_directory'
  | 'data_directory'
  | 'symlink_swapped'
  | 'not_a_directory'
  | 'protected_path';

/** A path refused by the sandbox (requirements P4). `rule` says which check refused it. */
export class SandboxError extends ToolError {
  constructor(
    readonly rule: SandboxRule,
    readonly path: string,
    message: string,
  ) {
    super(`${message} [sandbox rule: ${rule}]`);
  }
}
