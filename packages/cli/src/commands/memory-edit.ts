import { spawn } from 'node:child_process';
import { stat } from 'node:fs/promises';
import { canonicalWorkspace, ensureMemoryDir, memoryFilePath } from '@tandem/server';
import { chooseSession } from '@tandem/tui/session-choice';
import type { ConnectionArgs } from '../connection-args.js';
import { withClient } from './with-client.js';

export interface EditArgs extends ConnectionArgs {
  /** A session whose workspace to edit (asks the server for its cwd); default: this directory. */
  session?: string | undefined;
  workspace?: string | undefined;
  env?: NodeJS.ProcessEnv;
  out?: NodeJS.WritableStream;
}

/**
 * `tandem memory edit`: opens the workspace's MEMORY.md in $VISUAL / $EDITOR (vi when neither
 * is set), then says how it changed in size. Saving is the editor's business; the server reads
 * the file at the next turn.
 */
export async function editMemory(args: EditArgs): Promise<number> {
  const env = args.env ?? process.env;
  const out = args.out ?? process.stdout;
  const workspace = args.workspace ?? (args.session ? await sessionWorkspace(args) : process.cwd());
  const canonical = await canonicalWorkspace(workspace);
  await ensureMemoryDir(args.dataDir, canonical);
  const file = await memoryFilePath(args.dataDir, canonical);
  const before = await sizeOf(file);
  const editor = env.VISUAL || env.EDITOR || 'vi';
  out.write(`editing ${file} (memory of ${canonical}) with ${editor}\n`);
  const code = await runEditor(editor, file, env);
  if (code !== 0) {
    process.stderr.write(`tandem: the editor (${editor}) exited with code ${code}; MEMORY.md is as the editor left it\n`);
    return 1;
  }
  out.write(`${describeChange(before, await sizeOf(file))}\n`);
  return 0;
}

export function describeChange(before: number | null, after: number | null): string {
  if (after === null) return before === null ? 'MEMORY.md: not created (nothing saved)' : 'MEMORY.md: removed';
  if (before === null) return `MEMORY.md: created, ${after} bytes`;
  if (before === after) return `MEMORY.md: ${after} bytes, size unchanged`;
  const delta = after - before;
  return `MEMORY.md: ${before} → ${after} bytes (${delta > 0 ? '+' : ''}${delta})`;
}

async function sessionWorkspace(args: EditArgs): Promise<string> {
  return withClient(args, 'memory edit', async (client) => (await chooseSession(client, { sessionId: args.session, viewer: true })).cwd);
}

async function sizeOf(file: string): Promise<number | null> {
  try {
    return (await stat(file)).size;
  } catch {
    return null;
  }
}

/** `$EDITOR` may carry arguments (`code -w`), so it runs through sh with the file as "$1". */
function runEditor(editor: string, file: string, env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn('/bin/sh', ['-c', `${editor} "$1"`, 'tandem-editor', file], { stdio: 'inherit', env });
    child.once('error', (err) => reject(new Error(`could not start the editor (${editor}): ${err.message}`)));
    child.once('exit', (code, signal) => resolvePromise(code ?? (signal ? 128 : 1)));
  });
}
