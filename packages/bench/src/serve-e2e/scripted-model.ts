import type { FakeReply, FakeRequest } from '@tandem/testkit';

/** What the model server saw of the first request of a run: the tool definitions and the body. */
export interface RequestShape {
  toolCount: number;
  toolBytes: number;
  bodyBytes: number;
  /** A non-ASCII character anywhere in the body (it makes V8 hold the JSON as a two-byte string). */
  nonAscii: number;
}

/** The call for iteration `i` (arguments must differ: a guard stops a call repeated with the same ones). */
export type ToolCallScript = (i: number) => { name: string; args: Record<string, unknown> };

/**
 * The scripted model both paths talk to: a tool call per reply until the conversation holds
 * `iterations` tool results, then a short answer. Requests without tools (e.g. a title or a
 * summary) get a plain answer and do not count.
 */
export class ScriptedModel {
  iterations = 0;
  toolCall: ToolCallScript = (i) => ({ name: 'read_file', args: { path: 'note.txt', limit: i + 1 } });
  first: RequestShape | undefined;

  reset(iterations: number, toolCall: ToolCallScript): void {
    this.iterations = iterations;
    this.toolCall = toolCall;
    this.first = undefined;
  }

  readonly reply = (req: FakeRequest): FakeReply => {
    const body = (req.body ?? {}) as { messages?: Array<{ role: string }>; tools?: unknown[] };
    const messages = body.messages ?? [];
    if (!body.tools || body.tools.length === 0) return { text: 'ok' };
    if (!this.first) {
      const json = JSON.stringify(body);
      this.first = {
        toolCount: body.tools.length,
        toolBytes: Buffer.byteLength(JSON.stringify(body.tools)),
        bodyBytes: Buffer.byteLength(json),
        nonAscii: countNonAscii(json),
      };
    }
    const done = messages.filter((m) => m.role === 'tool').length;
    return done < this.iterations ? { toolCalls: [this.toolCall(done)] } : { text: 'done' };
  };
}

function countNonAscii(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) n++;
  return n;
}
