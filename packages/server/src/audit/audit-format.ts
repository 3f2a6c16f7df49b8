import type { AuditRecord } from '@tandem/shared';

const COLUMNS: Array<[string, number]> = [
  ['TIME', 19],
  ['SESSION', 8],
  ['TOOL', 14],
  ['DECISION', 14],
  ['BY', 10],
  ['ERR', 3],
  ['MS', 6],
];

export function auditTableHeader(): string {
  return `${COLUMNS.map(([name, width]) => name.padEnd(width)).join('  ')}  ARGS\n`;
}

/** One record as a table row: fixed columns, then the (already masked) arguments on one line. */
export function auditTableRow(record: AuditRecord): string {
  const cells = [
    record.ts.replace('T', ' ').slice(0, 19),
    record.sessionId.slice(0, 8),
    record.tool,
    record.decision,
    record.decidedBy ?? '',
    record.isError ? 'yes' : '-',
    String(Math.round(record.durationMs)),
  ];
  const row = cells.map((cell, i) => fit(cell, COLUMNS[i]![1], i === 6)).join('  ');
  return `${row}  ${fit(argsText(record.args), 100)}\n`;
}

function argsText(args: unknown): string {
  if (args && typeof args === 'object' && typeof (args as { command?: unknown }).command === 'string') return (args as { command: string }).command;
  if (args && typeof args === 'object' && typeof (args as { path?: unknown }).path === 'string') return (args as { path: string }).path;
  try {
    return JSON.stringify(args) ?? '';
  } catch {
    return String(args);
  }
}

function fit(text: string, width: number, right = false): string {
  const flat = text.replace(/\s+/g, ' ');
  const cut = flat.length > width ? `${flat.slice(0, width - 1)}…` : flat;
  return right ? cut.padStart(width) : cut.padEnd(width);
}
