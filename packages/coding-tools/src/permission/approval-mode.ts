import path from 'node:path';
import type { ApprovalMode, Danger, ToolKind } from '@tandem/shared';

export interface ModeCall {
  tool: string;
  danger: Danger;
  readOnly: boolean;
  /** The tool's declared kind: `edit` tools are what auto-edit runs without asking. */
  kind?: ToolKind;
  alwaysAsk?: boolean;
  /** The call's paths as the path sandbox resolved them (real paths). */
  paths?: readonly string[];
}

export interface ModeContext {
  /** Whether the tool runs shell commands (run_command). */
  isCommand: boolean;
  /** For a command: the read-only reason when every segment only reads, else null. */
  readOnly: string | null;
  /** The command text, for the refusal's wording. */
  command?: string;
}

/**
 * `read-only` mode (requirements U2): the refusal for a call that could change something — every tool
 * that is not read-only (unless it is `safe`) and every command that is not read-only — or
 * null when the call may go on to the permission policy. Worded for the model to act on.
 */
export function readOnlyModeRefusal(call: ModeCall, mode: ApprovalMode, ctx: ModeContext): string | null {
  if (mode !== 'read-only') return null;
  const switchHint = 'ask the user to switch the approval mode (e.g. to "ask") if the change is needed';
  if (ctx.isCommand) {
    if (ctx.readOnly) return null;
    return `Refused: this session is in read-only mode and \`${clip(ctx.command ?? '')}\` is not a read-only command. Use read-only commands (ls, cat, grep, git status, …) or the read tools instead, or ${switchHint}.`;
  }
  if (call.readOnly || call.danger === 'safe') return null;
  return `Refused: this session is in read-only mode, so ${call.tool} (which changes things) is not available. Describe the change instead, or ${switchHint}.`;
}

/**
 * `auto-edit` mode (requirements U2): the reason a file edit runs without asking, or null. Only
 * tools of kind `edit` (write_file, edit_file, insert_line, delete_lines) that never always ask,
 * only when every resolved path is inside
 * the workspace (a granted directory does not count) and outside `.git` (its config and hooks
 * can make later commands run code).
 */
export function autoEditAllows(call: ModeCall, mode: ApprovalMode, workspace: string): string | null {
  if (mode !== 'auto-edit' || call.kind !== 'edit' || call.alwaysAsk || !call.paths || call.paths.length === 0) return null;
  const inside = call.paths.every((p) => {
    const rel = path.relative(workspace, p);
    return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel) && !rel.split(path.sep).includes('.git');
  });
  return inside ? 'auto-edit mode: a file edit inside the workspace' : null;
}

/**
 * `full-auto` mode (a headless run's `--approval-mode full-auto`): the reason a call that would
 * ask runs without asking, or null. It comes after the blacklist, the read-only refusal and the
 * stored and session rules (a stored deny still denies), so it only replaces the question; the
 * OS sandbox and the rate limit still apply, and the call is audited. Tools that always ask
 * (`alwaysAsk`, e.g. configure_provider) still ask.
 */
export function fullAutoAllows(mode: ApprovalMode, alwaysAsk: boolean): string | null {
  if (mode !== 'full-auto' || alwaysAsk) return null;
  return 'full-auto mode: runs without asking';
}

function clip(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > 120 ? `${oneLine.slice(0, 117)}…` : oneLine;
}
