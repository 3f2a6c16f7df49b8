import type { FakeReply, FakeRequest } from '@tandem/testkit';

/** The file every agent reads, in its workspace. */
export const NOTE = 'note.txt';
export const NOTE_TEXT = 'first line\nsecond line\nthird line\n';

interface Block {
  type?: string;
}

/**
 * The scripted task every agent gets: read note.txt once per step (`limit` changes each call, so
 * no guard takes the calls for a loop) until the turn holds `steps` tool results, then answer.
 * It speaks to whichever agent asks, in either wire format: Tandem's `read_file { path }`, Claude
 * Code's `Read { file_path }` (an absolute path) and pi's `read { path }`. A request offering none
 * of these (a title, a summary) gets a short answer and does not count.
 *
 * `perTurn`: count only the results since the last message the user typed (a session of several
 * turns). Otherwise all of the request's results count (one turn; Claude Code may add reminder
 * text to a tool-result turn, which must not restart the count).
 */
export class ScriptedSteps {
  steps = 40;
  perTurn = false;
  /** The absolute path of the note, for tools that want one. */
  workspace = '';

  readonly reply = (req: FakeRequest): FakeReply => {
    const body = (req.body ?? {}) as { tools?: unknown[]; messages?: Array<{ role: string; content?: unknown }> };
    const names = (body.tools ?? []).map(toolName);
    const messages = body.messages ?? [];
    const done = req.format === 'anthropic' ? this.anthropicResults(messages) : this.openaiResults(messages);
    const call = (i: number): FakeReply | undefined => {
      if (names.includes('read_file')) return { toolCalls: [{ name: 'read_file', args: { path: NOTE, limit: i + 1 } }] };
      if (names.includes('Read')) return { toolCalls: [{ name: 'Read', args: { file_path: `${this.workspace}/${NOTE}`, limit: i + 1 } }] };
      if (names.includes('read')) return { toolCalls: [{ name: 'read', args: { path: NOTE, limit: i + 1 } }] };
      return undefined;
    };
    const next = done < this.steps ? call(done) : undefined;
    return next ?? { text: names.length > 0 ? 'done: the note has three lines.' : 'ok' };
  };

  private anthropicResults(messages: Array<{ role: string; content?: unknown }>): number {
    let from = 0;
    const typed = (m: { role: string; content?: unknown }) =>
      m.role === 'user' && (typeof m.content === 'string' || (Array.isArray(m.content) && !(m.content as Block[]).some((b) => b.type === 'tool_result')));
    if (this.perTurn) messages.forEach((m, i) => typed(m) && (from = i));
    let n = 0;
    for (const m of messages.slice(from)) if (Array.isArray(m.content)) n += (m.content as Block[]).filter((b) => b.type === 'tool_result').length;
    return n;
  }

  private openaiResults(messages: Array<{ role: string; content?: unknown }>): number {
    let from = 0;
    if (this.perTurn) messages.forEach((m, i) => m.role === 'user' && (from = i));
    return messages.slice(from).filter((m) => m.role === 'tool').length;
  }
}

function toolName(tool: unknown): string {
  const t = tool as { name?: unknown; function?: { name?: unknown } };
  return String(t.function?.name ?? t.name ?? '');
}
