import { createReadStream } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import type { SessionEvent } from '@tandem/shared';

export interface LogReadProblem {
  line: number;
  reason: string;
}

/**
 * Streams the events of a session log in file order. A line that is not valid JSON (a write
 * cut short by a crash) is reported through `onProblem` and skipped, never fatal.
 * A missing file reads as empty. `onOffset`, when given, learns the byte offset of each event's line.
 * `start`: the byte offset of a line's start to read from (a snapshot covers what is before it).
 */
export async function* readEventLog(
  path: string,
  onProblem: (problem: LogReadProblem) => void,
  onOffset?: (seq: number, offset: number) => void,
  start = 0,
): AsyncGenerator<SessionEvent> {
  const stream = createReadStream(path, { encoding: 'utf8', start });
  const opened = await new Promise<boolean>((resolve, reject) => {
    stream.once('open', () => resolve(true));
    stream.once('error', (err: NodeJS.ErrnoException) => (err.code === 'ENOENT' ? resolve(false) : reject(err)));
  });
  if (!opened) return;
  const lines = createInterface({ input: stream, crlfDelay: Infinity });
  let lineNo = 0;
  let offset = start;
  try {
    for await (const line of lines) {
      lineNo++;
      const start = offset;
      // The writer ends every line with a lone '\n'.
      if (onOffset) offset += Buffer.byteLength(line, 'utf8') + 1;
      if (line.trim() === '') continue;
      const event = parseEventLine(line);
      if (event) {
        onOffset?.(event.seq, start);
        yield event;
      } else onProblem({ line: lineNo, reason: `line ${lineNo} is not a complete event (${line.length} chars); skipped` });
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

/** One page of older events read backwards: in file order, and where the oldest one's line starts. */
export interface LogPage {
  events: SessionEvent[];
  /** Byte offset of the first returned event's line (the end of the file when none); the next older page ends here. */
  offset: number;
}

const BACKWARD_CHUNK = 64 * 1024;

/**
 * Reads a session log backwards from `endOffset` (default: the end of the file) and returns up to
 * `limit` events with seq < `beforeSeq` and seq ≤ `maxSeq`, in file order. It reads only the
 * chunks the page needs, so the cost follows the page, not the log. Seqs are taken strictly
 * decreasing (a line out of order is skipped, as a forward read skips it); a line that is not an
 * event (a write cut short) is skipped. A missing file reads as empty.
 */
export async function readEventsBefore(
  path: string,
  options: { beforeSeq: number; limit: number; maxSeq: number; endOffset?: number | undefined },
): Promise<LogPage> {
  let file: FileHandle;
  try {
    file = await open(path, 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { events: [], offset: 0 };
    throw err;
  }
  const newestFirst: SessionEvent[] = [];
  let below = options.beforeSeq;
  try {
    const size = (await file.stat()).size;
    let position = Math.min(options.endOffset ?? size, size);
    // An offset must be a line's start: otherwise (a file rewritten meanwhile) read from the end.
    if (position < size && position > 0 && !(await endsLine(file, position))) position = size;
    let offset = position;
    // Bytes of a line whose start is not read yet: the beginning of what was read so far.
    let carry: Buffer = Buffer.alloc(0);
    const take = (line: Buffer, lineStart: number) => {
      const event = line.length > 0 ? parseEventLine(line.toString('utf8')) : undefined;
      if (!event || event.seq >= below || event.seq > options.maxSeq) return;
      newestFirst.push(event);
      below = event.seq;
      offset = lineStart;
    };
    while (position > 0 && newestFirst.length < options.limit) {
      const length = Math.min(BACKWARD_CHUNK, position);
      position -= length;
      const chunk = Buffer.allocUnsafe(length);
      let read = 0;
      while (read < length) {
        const { bytesRead } = await file.read(chunk, read, length - read, position + read);
        if (bytesRead === 0) break;
        read += bytesRead;
      }
      const buffer = carry.length > 0 ? Buffer.concat([chunk.subarray(0, read), carry]) : chunk.subarray(0, read);
      let lineEnd = buffer.length;
      for (let i = buffer.length - 1; i >= 0 && newestFirst.length < options.limit; i--) {
        if (buffer[i] !== 0x0a) continue;
        take(buffer.subarray(i + 1, lineEnd), position + i + 1);
        lineEnd = i;
      }
      carry = buffer.subarray(0, lineEnd);
    }
    // The first line of the file has no newline before it.
    if (position === 0 && newestFirst.length < options.limit && carry.length > 0) take(carry, 0);
    return { events: newestFirst.reverse(), offset };
  } finally {
    await file.close();
  }
}

/** Whether the byte before `offset` is a newline. */
async function endsLine(file: FileHandle, offset: number): Promise<boolean> {
  const byte = Buffer.alloc(1);
  const { bytesRead } = await file.read(byte, 0, 1, offset - 1);
  return bytesRead === 1 && byte[0] === 0x0a;
}

/** Whether the byte before `offset` in the file at `path` is a newline (a line ends there); false for a missing file. */
export async function endsLineAt(path: string, offset: number): Promise<boolean> {
  if (offset <= 0) return false;
  let file: FileHandle;
  try {
    file = await open(path, 'r');
  } catch {
    return false;
  }
  try {
    return await endsLine(file, offset);
  } finally {
    await file.close();
  }
}
