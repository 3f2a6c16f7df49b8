import { createPatch } from 'diff';
import { subjectOf } from './call-subject.js';
import type { PolicyCall, PolicyOptions } from './rule.js';

/** Upper bound on a preview's size: it travels in a logged event. */
export const PREVIEW_MAX_CHARS = 4000;

const EDIT_PAIRS: ReadonlyArray<[string, string]> = [
  ['old_string', 'new_string'],
  ['oldString', 'newString'],
  ['old_text', 'new_text'],
];

/**
 * What the person sees in the dialog: a command verbatim, an edit as a unified diff of its
 * old and new text, a write as the path and the first lines of the content, a file tool as its
 * path, anything else as its arguments. Built from the arguments only (no disk reads), capped.
 */
export function buildPermissionPreview(call: PolicyCall, options: Pick<PolicyOptions, 'workspace' | 'commandTools'> = {}): string {
  const subject = subjectOf(call, options);
  const args = (typeof call.args === 'object' && call.args !== null ? call.args : {}) as Record<string, unknown>;
  if (subject.kind === 'command') return cap(subject.command);
  if (subject.kind === 'host') {
    const command = typeof args.command === 'string' ? args.command : '';
    return cap(`Connect to ${subject.target}\nfrom the command: ${command}`);
  }
  if (subject.kind === 'path') {
    const edit = EDIT_PAIRS.find(([a, b]) => typeof args[a] === 'string' && typeof args[b] === 'string');
    if (edit) {
      const patch = createPatch(subject.display, args[edit[0]] as string, args[edit[1]] as string, undefined, undefined, { context: 2 });
      return cap(
        patch
          .split('\n')
          .filter((line) => !line.startsWith('Index:') && !/^=+$/.test(line))
          .join('\n'),
      );
    }
    const content = ['content', 'new_string', 'text'].map((k) => args[k]).find((v): v is string => typeof v === 'string');
    if (content !== undefined) {
      const lines = content.split('\n');
      const where = describeLines(args);
      const head = lines.slice(0, 40).join('\n');
      const more = lines.length > 40 ? `\n… ${lines.length - 40} more lines` : '';
      return cap(`${subject.display}${where}\n${head}${more}`);
    }
    return cap(`${subject.display}${describeLines(args)}`);
  }
  // A message (whatsapp_send and the like): the recipient and the whole text, as it will go out.
  const to = ['to', 'recipient'].map((k) => args[k]).find((v): v is string => typeof v === 'string');
  const message = ['text', 'message'].map((k) => args[k]).find((v): v is string => typeof v === 'string');
  if (to !== undefined && message !== undefined) return cap(`To: ${to}\n\n${message}`);
  let json: string;
  try {
    json = JSON.stringify(call.args, null, 2) ?? '';
  } catch {
    json = String(call.args);
  }
  return cap(json);
}

function describeLines(args: Record<string, unknown>): string {
  const start = args.start_line ?? args.startLine ?? args.line;
  const end = args.end_line ?? args.endLine;
  if (typeof start !== 'number') return '';
  return typeof end === 'number' ? ` (lines ${start}–${end})` : ` (line ${start})`;
}

function cap(text: string): string {
  return text.length <= PREVIEW_MAX_CHARS ? text : `${text.slice(0, PREVIEW_MAX_CHARS)}\n… (${text.length - PREVIEW_MAX_CHARS} more characters)`;
}
