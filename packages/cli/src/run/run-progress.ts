import type { EventOf, SessionEvent } from '@tandem/shared';
import { formatDuration, noticeFor } from '@tandem/tui/state';
import { genericCallSummary } from '@tandem/shared';

export interface ProgressOptions {
  /** Where lines go (stderr). */
  write(line: string): void;
  /** `--quiet`: only what explains the exit status (a permission that timed out). */
  quiet: boolean;
  sessionId: string;
}

/**
 * What a headless run tells the person watching its stderr: the tool calls and their ends,
 * permission requests (and how to answer them from elsewhere), warnings and errors. stdout
 * stays for the answer. With `--quiet` only a permission that nobody answered is told, since
 * it explains the exit status.
 */
export class RunProgress {
  private readonly calls = new Map<string, string>();
  private readonly asked = new Map<string, string>();

  constructor(private readonly options: ProgressOptions) {}

  observe(event: SessionEvent): void {
    switch (event.type) {
      case 'tool_call':
        this.calls.set(event.callId, callText(event));
        return this.say(`${who(event)}→ ${callText(event)}${event.reason ? ` (${event.reason})` : ''}`);
      case 'tool_result':
        return this.say(
          event.isError
            ? `${who(event)}✗ ${event.tool}${event.outcome && event.outcome !== 'error' ? ` ${event.outcome}` : ''}: ${firstLine(event.output)}`
            : `${who(event)}✓ ${event.tool} (${formatDuration(event.durationMs)})`,
        );
      case 'permission_request':
        return this.permissionRequested(event);
      case 'permission_resolved':
        return this.permissionResolved(event);
      case 'model_fallback':
        return this.say(`model ${event.from} → ${event.to}: ${event.reason}`);
      default: {
        if (event.type === 'agent_error') return; // the run's closing sentence says it once
        const notice = noticeFor(event);
        if (notice) this.say(`${notice.level === 'info' ? '' : `${notice.level}: `}${notice.text}`);
      }
    }
  }

  private permissionRequested(event: EventOf<'permission_request'>): void {
    const call = callText(event);
    this.asked.set(event.requestId, call);
    const waitMs = Date.parse(event.expiresAt) - Date.parse(event.ts);
    const within = Number.isFinite(waitMs) ? ` within ${formatDuration(Math.max(0, waitMs))}` : '';
    this.say(
      `waiting for permission: ${call} — answer it from \`tandem attach ${this.options.sessionId.slice(0, 8)}\` or the web viewer${within}, or it is denied`,
    );
  }

  private permissionResolved(event: EventOf<'permission_resolved'>): void {
    const call = this.asked.get(event.requestId) ?? 'a tool call';
    if (event.reason === 'timeout') {
      // Said even with --quiet: it is why the run stops with exit status 3.
      this.options.write(`tandem: permission for ${call} was not answered in time: denied`);
      return;
    }
    if (event.reason === 'expired') return;
    this.say(`permission ${event.decision.replace('_', ' ')} by ${event.by}: ${call}`);
  }

  private say(line: string): void {
    if (!this.options.quiet) this.options.write(line);
  }
}

function callText(event: { tool: string; args: unknown; summary?: string }): string {
  const summary = event.summary ?? genericCallSummary(event.args);
  return summary ? `${event.tool} ${summary}` : event.tool;
}

function who(event: SessionEvent): string {
  return event.agent && event.agent !== 'commander' ? `[${event.agent}] ` : '';
}

function firstLine(text: string): string {
  const line = text.split('\n').find((l) => l.trim() !== '') ?? '';
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}
