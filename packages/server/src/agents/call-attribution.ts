import type { EventBody } from '@tandem/shared';
import type { EngineEvent } from '@tandem/core';

type Body = EventBody | EngineEvent;
interface Tag {
  agent: string;
  taskId?: string;
}

/**
 * Gives the events about one call the agent of the call: a `tool_call` carries its agent (and
 * task); what others emit about that call later without knowing the agent — the gate's
 * `permission_request` and `permission_resolved`, a rate-limit wait, command output — gets the
 * same tag, so the dialog and the transcript can say which agent asks. Holds only open calls.
 */
export class CallAttribution {
  private readonly calls = new Map<string, Tag>();
  private readonly requests = new Map<string, Tag>();

  tag<T extends Body>(body: T): T {
    const fields = body as { agent?: string; taskId?: string; callId?: unknown; requestId?: unknown };
    const callId = typeof fields.callId === 'string' ? fields.callId : undefined;
    if (body.type === 'tool_call' && callId && fields.agent) {
      this.calls.set(callId, { agent: fields.agent, ...(fields.taskId ? { taskId: fields.taskId } : {}) });
      return body;
    }
    if (body.type === 'tool_result' && callId) {
      this.calls.delete(callId);
      return body;
    }
    if (fields.agent) return body;
    const requestId = typeof fields.requestId === 'string' ? fields.requestId : undefined;
    let tag = callId ? this.calls.get(callId) : undefined;
    if (body.type === 'permission_request' && tag && requestId) this.requests.set(requestId, tag);
    if (body.type === 'permission_resolved' && requestId) {
      tag = this.requests.get(requestId);
      this.requests.delete(requestId);
    }
    return tag ? { ...body, ...tag } : body;
  }
}
