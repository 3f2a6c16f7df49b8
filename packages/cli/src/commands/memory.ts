import { resolve } from 'node:path';
import { writeFileAtomic } from '@tandem/server';
import { chooseSession } from '@tandem/tui/session-choice';
import type { ConnectionArgs } from '../connection-args.js';
import { withClient } from './with-client.js';

export type MemoryFormat = 'markdown' | 'json';

export interface MemoryArgs extends ConnectionArgs {
  session?: string | undefined;
  out?: NodeJS.WritableStream;
}

interface MemoryItem {
  id: string;
  kind: 'note' | 'profile';
  text: string;
  createdAt: string;
}

interface SessionMemory {
  sessionId: string;
  workspace: string;
  memory: string;
  history: string;
  items: MemoryItem[];
}

/** memory:show for the session (by id or prefix; by default the one for this directory). */
async function fetchMemory(args: MemoryArgs): Promise<SessionMemory> {
  return withClient(args, 'memory', async (client) => {
    const session = await chooseSession(client, { sessionId: args.session, cwd: args.session ? undefined : process.cwd(), viewer: true });
    const result = await client.request('memory:show', { sessionId: session.id });
    return { sessionId: session.id, workspace: session.cwd, memory: result.memory, history: result.history, items: result.items ?? [] };
  });
}

/** `tandem memory [show]`: the long-term memory (MEMORY.md) and history (HISTORY.md) a session sees. */
export async function showMemory(args: MemoryArgs): Promise<number> {
  const result = await fetchMemory(args);
  const out = args.out ?? process.stdout;
  out.write(`# MEMORY.md\n\n${result.memory.trim() || '(empty)'}\n\n# HISTORY.md\n\n${result.history.trim() || '(empty)'}\n`);
  return 0;
}

/** `tandem memory export`: MEMORY.md and HISTORY.md as one markdown document or JSON, to stdout or --out FILE. */
export async function exportMemory(args: MemoryArgs & { format: MemoryFormat; file?: string | undefined }): Promise<number> {
  const result = await fetchMemory(args);
  const text = renderExport(result, args.format, new Date());
  if (!args.file) {
    (args.out ?? process.stdout).write(text);
    return 0;
  }
  const written = await writeOutput(args.file, text);
  (args.out ?? process.stdout).write(`wrote ${written} (${Buffer.byteLength(text)} bytes, ${args.format})\n`);
  return 0;
}

/** Writes `text` to `file` atomically (a crash leaves the old file or the new one); returns the absolute path. */
async function writeOutput(file: string, text: string): Promise<string> {
  const target = resolve(file);
  try {
    await writeFileAtomic(target, text);
  } catch (err) {
    throw new Error(`could not write ${target}: ${(err as Error).message}`);
  }
  return target;
}

export function renderExport(memory: SessionMemory, format: MemoryFormat, now: Date): string {
  if (format === 'json') {
    return `${JSON.stringify({ workspace: memory.workspace, sessionId: memory.sessionId, exportedAt: now.toISOString(), memory: memory.memory, history: memory.history, items: memory.items }, null, 2)}\n`;
  }
  const list = (kind: MemoryItem['kind']) =>
    memory.items
      .filter((i) => i.kind === kind)
      .map((i) => `- ${i.text} _(${i.id}, ${i.createdAt.slice(0, 10)})_`)
      .join('\n') || '_none_';
  return [
    `# Tandem memory — ${memory.workspace}`,
    '',
    `_exported ${now.toISOString()} from session ${memory.sessionId}_`,
    '',
    '## MEMORY.md',
    '',
    memory.memory.trim() || '_empty_',
    '',
    '## User profile',
    '',
    list('profile'),
    '',
    '## Agent notes',
    '',
    list('note'),
    '',
    '## HISTORY.md',
    '',
    memory.history.trim() || '_empty_',
    '',
  ].join('\n');
}
