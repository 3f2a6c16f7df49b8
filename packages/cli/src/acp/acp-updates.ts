import type { SessionUpdate, ToolCallContent } from '@agentclientprotocol/sdk';
import type { EventOf, SessionEvent } from '@tandem/shared';
import stripAnsi from 'strip-ansi';
import { type DescribedCall, editDiff, replacedDiff, textContent, toolKind, toolLocations, toolTitle } from './acp-tool-calls.js';

export interface TranslatorOptions {
  /** The session's folder (relative paths in tool arguments are under it). */
  cwd: string;
  /** Whether the session's files are on this machine (a local server): diffs may read them. */
  localFiles: boolean;
  /** Our client name: our own messages are not echoed back to the editor that sent them. */
  by: string;
}

/** A running command's output kept for the editor: its last 64 KB. */
const MAX_OUTPUT_CHARS = 64 * 1024;

interface CallState {
  call: DescribedCall;
  diff: ToolCallContent | undefined;
  output: string;
  started: boolean;
  /** The diff was made from the file as it was before the call ran. */
  read: boolean;
}

/**
 * Turns Tandem session events into ACP `session/update`s: the reply's text as
 * `agent_message_chunk`s, other people's messages as `user_message_chunk`s, each tool call as
 * `tool_call` (pending) then `tool_call_update`s (in_progress once it runs, completed or failed
 * with its output, the diff of an edit, a command's output while it runs), and mode changes as
 * `current_mode_update`. Workers' own text stays out (their answers reach the reply through
 * their parent). During a replay (`session/load`) the text comes whole from `assistant_text`.
 */
export class AcpEventTranslator {
  private readonly calls = new Map<string, CallState>();
  private readonly requests = new Map<string, string>();
  /** Text streamed since the last `assistant_text`, per turn. */
  private readonly streamed = new Map<string, string>();

  constructor(private readonly options: TranslatorOptions) {}

  async updates(event: SessionEvent, replay: boolean): Promise<SessionUpdate[]> {
    switch (event.type) {
      case 'user_message':
        if (!replay && event.by === this.options.by) return [];
        return [{ sessionUpdate: 'user_message_chunk', content: { type: 'text', text: event.text } }];
      case 'text_delta': {
        if (event.taskId || replay) return [];
        this.streamed.set(event.turnId, (this.streamed.get(event.turnId) ?? '') + event.delta);
        return [{ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: event.delta } }];
      }
      case 'assistant_text':
        return event.taskId ? [] : this.assistantText(event);
      case 'tool_call':
        return this.toolCall(event.callId, described(event), !replay && (event.danger === 'safe' || event.reason !== undefined), replay);
      case 'permission_request': {
        this.requests.set(event.requestId, event.callId);
        // A question that is not about an announced call (a project MCP server's launch) gets its own entry.
        return this.calls.has(event.callId) ? [] : this.toolCall(event.callId, described(event), false, replay);
      }
      case 'permission_resolved': {
        const callId = this.requests.get(event.requestId);
        this.requests.delete(event.requestId);
        if (!callId || !event.decision.startsWith('allow')) return [];
        return this.started(callId);
      }
      case 'command_output':
        this.appendOutput(event.callId, event.data);
        return [];
      case 'tool_result':
        return this.toolResult(event, replay);
      case 'session_configured':
        return event.mode ? [{ sessionUpdate: 'current_mode_update', currentModeId: event.mode }] : [];
      default:
        return [];
    }
  }

  /** The title and content of a call, for its `session/request_permission`. */
  describeCall(callId: string): { title: string; kind: ReturnType<typeof toolKind>; rawInput: unknown; content: ToolCallContent[] } | undefined {
    const call = this.calls.get(callId);
    if (!call) return undefined;
    return { title: toolTitle(call.call), kind: toolKind(call.call), rawInput: call.call.args, content: call.diff ? [call.diff] : [] };
  }

  /** A running command's output so far, as an update (sent at most every so often, not per chunk). */
  outputUpdate(callId: string): SessionUpdate[] {
    const call = this.calls.get(callId);
    if (!call || call.output === '') return [];
    call.started = true;
    return [{ sessionUpdate: 'tool_call_update', toolCallId: callId, status: 'in_progress', content: [textContent(call.output)] }];
  }

  private assistantText(event: EventOf<'assistant_text'>): SessionUpdate[] {
    const streamed = this.streamed.get(event.turnId) ?? '';
    this.streamed.delete(event.turnId);
    const rest = streamed === '' ? event.text : event.text.startsWith(streamed) ? event.text.slice(streamed.length) : '';
    return rest ? [{ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: rest } }] : [];
  }

  private async toolCall(callId: string, call: DescribedCall, runsAtOnce: boolean, replay: boolean): Promise<SessionUpdate[]> {
    // A call that runs at once may have changed the file before it could be read: no reading then.
    const diff = await editDiff(call, this.options.cwd, this.options.localFiles && !runsAtOnce && !replay);
    this.calls.set(callId, { call, diff, output: '', started: false, read: this.options.localFiles && !runsAtOnce && !replay });
    const updates: SessionUpdate[] = [
      {
        sessionUpdate: 'tool_call',
        toolCallId: callId,
        title: toolTitle(call),
        kind: toolKind(call),
        status: 'pending',
        rawInput: call.args,
        locations: toolLocations(call, this.options.cwd),
        content: diff ? [diff] : [],
      },
    ];
    if (runsAtOnce) updates.push(...this.started(callId));
    return updates;
  }

  private started(callId: string): SessionUpdate[] {
    const call = this.calls.get(callId);
    if (!call || call.started) return [];
    call.started = true;
    return [{ sessionUpdate: 'tool_call_update', toolCallId: callId, status: 'in_progress' }];
  }

  private appendOutput(callId: string, data: string): void {
    const call = this.calls.get(callId);
    if (!call) return;
    const output = call.output + stripAnsi(data).replace(/\r\n?/g, '\n');
    call.output = output.length > MAX_OUTPUT_CHARS ? output.slice(-MAX_OUTPUT_CHARS) : output;
  }

  private async toolResult(event: EventOf<'tool_result'>, replay: boolean): Promise<SessionUpdate[]> {
    const call = this.calls.get(event.callId);
    this.calls.delete(event.callId);
    let diff = call?.diff;
    // A whole-content write that replaced a file without asking first (auto modes): the diff against its `.bak`.
    if (call && !call.read && !replay && this.options.localFiles && call.call.file?.content && event.output.startsWith('Replaced')) {
      diff = (await replacedDiff(call.call, this.options.cwd)) ?? diff;
    }
    const content: ToolCallContent[] = [];
    if (diff && !event.isError) content.push(diff);
    if (event.output) content.push(textContent(stripAnsi(event.output)));
    return [
      {
        sessionUpdate: 'tool_call_update',
        toolCallId: event.callId,
        status: event.isError ? 'failed' : 'completed',
        content,
        rawOutput: { output: event.output, isError: event.isError, ...(event.outcome ? { outcome: event.outcome } : {}), durationMs: event.durationMs },
      },
    ];
  }
}

/** A call as its tool_call (or a question about a call never announced) describes it. */
function described(event: EventOf<'tool_call'> | EventOf<'permission_request'>): DescribedCall {
  const file = event.type === 'tool_call' ? event.file : undefined;
  const kind = event.type === 'tool_call' ? event.kind : undefined;
  return {
    tool: event.tool,
    args: event.args,
    ...(kind ? { kind } : {}),
    ...(event.summary !== undefined ? { summary: event.summary } : {}),
    ...(file ? { file } : {}),
  };
}
