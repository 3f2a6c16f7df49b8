import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type blessed from 'blessed';

/** The editor the user asked for: $VISUAL, then $EDITOR, then vi. It may carry arguments (`code -w`). */
export function editorCommand(env: NodeJS.ProcessEnv = process.env): string {
  return env.VISUAL?.trim() || env.EDITOR?.trim() || 'vi';
}

/**
 * Ctrl-G: suspends the screen, runs the editor on a temporary file holding `text`, and resolves
 * with what the file holds when the editor exits successfully (the screen comes back either way).
 * A failing editor rejects, so the caller keeps the input line as it was.
 */
export async function composeInEditor(screen: blessed.Widgets.Screen, text: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'tandem-message-'));
  const file = join(dir, 'message.md');
  try {
    await writeFile(file, text);
    const editor = editorCommand();
    const ok = await new Promise<boolean>((resolve, reject) => {
      // Through the shell so "$VISUAL" may hold arguments; the file is passed as $1, never spliced in.
      screen.exec('/bin/sh', ['-c', `${editor} "$1"`, 'tandem-editor', file], { stdio: 'inherit', env: process.env }, (err: Error | null, success: boolean) =>
        err ? reject(err) : resolve(success),
      );
    });
    if (!ok) throw new Error(`${editor} exited with an error; the input line is unchanged`);
    return await readFile(file, 'utf8');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
