import type { AuditRecord } from '@tandem/shared';
import { clock } from './time-text.js';
import type { PanelContent, PanelRow } from './types.js';

/** How many records /audit asks for. */
export const AUDIT_LIMIT = 200;

/** /audit: the session's latest tool calls, newest first. */
export function auditContent(records: readonly AuditRecord[] | undefined): PanelContent {
  const rows = [...(records ?? [])].sort((a, b) => b.ts.localeCompare(a.ts)).map(auditRow);
  return {
    title: `audit · latest ${rows.length} tool call${rows.length === 1 ? '' : 's'} of this session`,
    rows,
    empty: 'no tool calls recorded for this session yet',
    selectable: true,
    actions: [],
  };
}

/** `14:03:27 run_command dangerous allow_once by ana  1.2s OK  npm test` */
export function auditRow(record: AuditRecord): PanelRow {
  const decision = `${record.decision}${record.decidedBy ? ` by ${record.decidedBy}` : ''}`;
  const outcome = record.isError ? 'ERROR' : 'OK';
  const summary = firstLine(record.resultSummary);
  return {
    key: record.id,
    text: `${clock(record.ts)} ${record.tool.padEnd(12)} ${record.danger.padEnd(9)} ${decision.padEnd(22)} ${seconds(record.durationMs).padStart(6)} ${outcome.padEnd(5)} ${summary}`,
    detail: `${record.callId} · args ${argsText(record.args)}`,
    tone: record.isError ? 'bad' : 'normal',
  };
}

function seconds(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)}ms` : `${(ms / 1000).toFixed(1)}s`;
}

function firstLine(text: string): string {
  const line = text.split(/\r?\n/).find((l) => l.trim().length > 0) ?? '';
  return line.length > 120 ? `${line.slice(0, 119)}…` : line;
}

function argsText(args: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(args) ?? 'none';
  } catch {
    text = String(args);
  }
  return text.length > 300 ? `${text.slice(0, 299)}…` : text;
}
