import type { FakeReply, FakeRequest } from '@tandem/testkit';

/** What the model server saw of the first request of a run: the tool definitions and the body. */
export interface RequestShape {
  toolCount: number;
  toolBytes: number;
  bodyBytes: number;
  /** A non-ASCII character anywhere in the body (it makes V8 hold the JSON as a two-byte string). */
  nonAscii: number;
  /** Body bytes of the run's last request (the one answered with text): the whole conversation. */
  lastBodyBytes?: number;
}

/** What a model request carries besides the conversation: the system prompt and the tool definitions. */
export interface RequestContent {
  system: string;
  tools: unknown[];
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
  /** The system prompt and tools of the first request that offered tools (kept across resets). */
  content: RequestContent | undefined;

  reset(iterations: number, toolCall: ToolCallScript): void {
    this.iterations = iterations;
    this.toolCall = toolCall;
    this.first = undefined;
  }

  readonly reply = (req: FakeRequest): FakeReply => {
    const body = (req.body ?? {}) as { messages?: Array<{ role: string; content?: unknown }>; tools?: unknown[] };
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
      const system = messages[0]?.role === 'system' && typeof messages[0].content === 'string' ? messages[0].content : '';
      this.content = { system, tools: body.tools };
    }
    const done = messages.filter((m) => m.role === 'tool').length;
    if (done < this.iterations) return { toolCalls: [this.toolCall(done)] };
    this.first.lastBodyBytes = Buffer.byteLength(JSON.stringify(body));
    return { text: 'done' };
  };
}

function countNonAscii(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) n++;
  return n;
}
