import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { SessionEvent } from '@tandem/shared';

export interface LogReadProblem {
  line: number;
  reason: string;
}

/**
 * Streams the events of a session log in file order. A line that is not valid JSON (a write
 * cut short by a crash) is reported through `onProblem` and skipped, never fatal.
 * A missing file reads as empty.
 */
export async function* readEventLog(path: string, onProblem: (problem: LogReadProblem) => void): AsyncGenerator<SessionEvent> {
  const stream = createReadStream(path, { encoding: 'utf8' });
  const opened = await new Promise<boolean>((resolve, reject) => {
    stream.once('open', () => resolve(true));
    stream.once('error', (err: NodeJS.ErrnoException) => (err.code === 'ENOENT' ? resolve(false) : reject(err)));
  });
  if (!opened) return;
  const lines = createInterface({ input: stream, crlfDelay: Infinity });
  let lineNo = 0;
  try {
    for await (const line of lines) {
      lineNo++;
      if (line.trim() === '') continue;
      const event = parseEventLine(line);
      if (event) yield event;
      else onProblem({ line: lineNo, reason: `line ${lineNo} is not a complete event (${line.length} chars); skipped` });
    }
  } finally {
    lines.close();
    stream.destroy();
  }
}

function parseEventLine(line: string): SessionEvent | undefined {
  try {
    const value: unknown = JSON.parse(line);
    if (typeof value !== 'object' || value === null) return undefined;
    const record = value as Record<string, unknown>;
    if (typeof record.seq !== 'number' || typeof record.type !== 'string') return undefined;
    return value as SessionEvent;
  } catch {
    return undefined;
  }
}
