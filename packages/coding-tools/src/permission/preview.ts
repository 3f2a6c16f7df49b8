import path from 'node:path';
import { displayPath, subjectOf } from './call-subject.js';
import type { PolicyCall, PolicyOptions } from './rule.js';

/** Upper bound on a preview's size: it travels in a logged event. */
export const PREVIEW_MAX_CHARS = 4000;

/**
 * What the person sees in the dialog: the tool's own preview (an edit as a diff, a message with
 * its recipient), else the subject it declared (a command verbatim, a path), else the arguments
 * as JSON. Built from the arguments only (no disk reads), capped.
 */
export function buildPermissionPreview(call: PolicyCall, options: Pick<PolicyOptions, 'workspace'> = {}): string {
  if (call.preview) {
    const workspace = options.workspace;
    try {
      return cap(call.preview({ showPath: (p) => displayPath(workspace ? path.resolve(workspace, p.trim()) : path.normalize(p.trim()), workspace) }));
    } catch {
      // fall back to the subject or the arguments
    }
  }
  const subject = subjectOf(call, options);
  if (subject.kind === 'command') return cap(subject.command);
  if (subject.kind === 'path') return cap(subject.display);
  let json: string;
  try {
    json = JSON.stringify(call.args, null, 2) ?? '';
  } catch {
    json = String(call.args);
  }
  return cap(json);
}

function cap(text: string): string {
  return text.length <= PREVIEW_MAX_CHARS ? text : `${text.slice(0, PREVIEW_MAX_CHARS)}\n… (${text.length - PREVIEW_MAX_CHARS} more characters)`;
}
