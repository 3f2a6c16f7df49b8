import type { EventOf, SessionEvent, SessionInfo } from '@tandem/shared';

/**
 * A session as a markdown transcript (`/export`, `tandem export`): who said what, each tool call
 * with its arguments, who allowed it, and its result, in the order they happened. Built from the
 * persisted events alone (streamed deltas are not kept; the final texts are).
 */
export type ExportedSession = Pick<SessionInfo, 'id' | 'title' | 'cwd' | 'model'> & Partial<Pick<SessionInfo, 'createdAt' | 'agents'>>;

export function transcriptMarkdown(session: ExportedSession, events: readonly SessionEvent[], exportedAt = new Date()): string {
  const withAgents = events.some((event) => event.type === 'agent_started') || (session.agents?.length ?? 0) > 0;
  const blocks: Array<string | ToolBlock> = [
    `# ${session.title || 'Tandem session'}`,
    [
      `- Session: \`${session.id}\``,
      `- Folder: \`${session.cwd}\``,
      `- Model: \`${session.model}\``,
      ...(session.createdAt ? [`- Started: ${session.createdAt}`] : []),
      `- Exported: ${exportedAt.toISOString()}`,
    ].join('\n'),
  ];
  // A tool's block is filled in as its permission answer and result arrive (parallel calls interleave).
  const tools = new Map<string, ToolBlock>();
  const requests = new Map<string, string>();
  const speaker = (event: { agent?: string | undefined; taskId?: string | undefined }) =>
    withAgents ? `${event.agent ?? 'commander'}${event.taskId ? ' (worker)' : ''}` : 'Tandem';
  for (const event of events) {
    switch (event.type) {
      case 'user_message':
        blocks.push(`## ${event.by}${event.mode === 'steer' ? ' (while the agent worked)' : ''}`, event.text);
        break;
      case 'assistant_text':
        if (event.text.trim()) blocks.push(`## ${speaker(event)}`, event.text);
        break;
      case 'tool_call': {
        const block = new ToolBlock(event, withAgents ? speaker(event) : undefined);
        tools.set(event.callId, block);
        blocks.push(block);
        break;
      }
      case 'permission_request':
        requests.set(event.requestId, event.callId);
        break;
      case 'permission_resolved': {
        const callId = requests.get(event.requestId);
        if (callId) tools.get(callId)?.decided(event);
        break;
      }
      case 'tool_result':
        tools.get(event.callId)?.finished(event);
        break;
      case 'turn_cancelled':
        blocks.push(`_The turn was cancelled: ${event.note}_`);
        break;
      case 'turn_interrupted':
        blocks.push(`_The turn was interrupted: ${event.reason}_`);
        break;
      case 'agent_error':
        blocks.push(`**Error (${event.code}):** ${event.message}`);
        break;
      case 'session_configured': {
        const changes = [
          event.model ? `the model to \`${event.model}\`` : '',
          event.mode ? `the approval mode to ${event.mode}` : '',
          event.title ? `the title to "${event.title}"` : '',
        ].filter(Boolean);
        if (changes.length > 0) blocks.push(`_${event.by} set ${changes.join(', ')}._`);
        break;
      }
      case 'agent_started':
        if (event.visible) blocks.push(`_${event.parent} started ${event.agent ?? 'a worker'} on: ${event.task}_`);
        break;
      case 'agent_done':
        blocks.push(`_${event.agent ?? 'a worker'} ${event.isError ? 'failed' : 'finished'}._`);
        break;
      case 'floor_changed':
        blocks.push(`_${event.agent ?? 'commander'} has the floor (by ${event.by})._`);
        break;
      case 'compaction':
        blocks.push(`_Older turns were summarised (${event.foldedMessages} messages)._`);
        break;
      case 'conversation_cleared':
        blocks.push(`_${event.by} cleared the conversation._`);
        break;
      default:
        break;
    }
  }
  return `${blocks.map(String).join('\n\n')}\n`;
}

/** One tool call: arguments, the permission answer, the result. Its text is read when the document is joined. */
class ToolBlock {
  private decision = '';
  private result = '';

  constructor(
    private readonly call: EventOf<'tool_call'>,
    private readonly agent: string | undefined,
  ) {}

  decided(event: EventOf<'permission_resolved'>): void {
    const how = event.decision.replace('_', ' ');
    this.decision = `Permission: ${how}${event.reason === 'stored' || event.reason === 'session' ? ` (${event.reason} rule)` : ` by ${event.by}`}`;
  }

  finished(event: EventOf<'tool_result'>): void {
    const status = event.isError ? `error${event.outcome && event.outcome !== 'error' ? `, ${event.outcome}` : ''}` : 'ok';
    this.result = `Result (${status}, ${event.durationMs} ms):\n\n${fence(event.output || '(no output)')}`;
  }

  toString(): string {
    const args = this.call.rawArgs ?? JSON.stringify(this.call.args ?? {}, null, 2);
    return [
      `### Tool: ${this.call.tool}${this.agent ? ` (by ${this.agent})` : ''}`,
      `Arguments:\n\n${fence(args, this.call.rawArgs ? '' : 'json')}`,
      ...(this.decision ? [this.decision] : []),
      this.result || '_No result recorded._',
    ].join('\n\n');
  }
}

/** A fenced code block whose fence is longer than any run of backticks inside. */
export function fence(text: string, lang = ''): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((match) => match[0].length));
  const ticks = '`'.repeat(Math.max(3, longest + 1));
  return `${ticks}${lang}\n${text.replace(/\n$/, '')}\n${ticks}`;
}
