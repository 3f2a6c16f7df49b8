import { createInterface } from 'node:readline/promises';
import type { SessionInfo } from '@tandem/shared';
import { lastUsed } from '@tandem/tui';

/**
 * `tandem -r`: this folder's sessions, most recently used first, as a numbered list to pick
 * from (`tandem -r ID` names one instead). Reads one answer from the terminal.
 */
export function resumeChoices(sessions: readonly SessionInfo[], now = Date.now()): string {
  const sorted = [...sessions].sort((a, b) => lastUsed(b).localeCompare(lastUsed(a)));
  return sorted
    .map((session, i) => {
      const title = session.title || '(untitled)';
      const running = session.status === 'idle' ? '' : ` · ${session.status === 'waiting_permission' ? 'waiting' : session.status}`;
      return `${String(i + 1).padStart(3)}) ${title} · used ${ago(lastUsed(session), now)} · ${session.model} · ${session.id.slice(0, 8)}${running}`;
    })
    .join('\n');
}

/** The sessions in the order `resumeChoices` lists them. */
export function resumeOrder(sessions: readonly SessionInfo[]): SessionInfo[] {
  return [...sessions].sort((a, b) => lastUsed(b).localeCompare(lastUsed(a)));
}

/** Asks which session to open; resolves with it, or throws when the answer is not one of them (or empty). */
export async function pickToResume(
  sessions: readonly SessionInfo[],
  io: { input: NodeJS.ReadableStream; output: NodeJS.WritableStream; folder: string },
): Promise<SessionInfo> {
  const ordered = resumeOrder(sessions);
  io.output.write(`sessions of ${io.folder}, most recently used first:\n${resumeChoices(ordered)}\n`);
  const rl = createInterface({ input: io.input, output: io.output, terminal: false });
  try {
    const answer = (await rl.question(`open which? 1-${ordered.length} (Enter: 1) `)).trim();
    const n = answer === '' ? 1 : Number(answer);
    const chosen = Number.isInteger(n) ? ordered[n - 1] : undefined;
    if (!chosen) throw new Error(`"${answer}" is not one of 1-${ordered.length}; run \`tandem -r\` again, or \`tandem -r ID\` (tandem ls lists the ids)`);
    return chosen;
  } finally {
    rl.close();
  }
}

/** `5 min ago`, `3 h ago`, `2 days ago`. */
export function ago(iso: string, now: number): string {
  const seconds = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  if (seconds < 60) return 'just now';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  return `${Math.round(hours / 24)} days ago`;
}
