import { appendFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Makes a long session for tests: appends `count` user messages ("question 1" … "question N",
 * by ana) to the session's event log under `dataDir`, numbered after its last line. Only while
 * no server has the session open: a running server would not see them and would reuse the seqs.
 */
export async function appendUserMessages(dataDir: string, sessionId: string, count: number): Promise<void> {
  const logPath = join(dataDir, 'sessions', sessionId, 'events.jsonl');
  const lastSeq = (await readFile(logPath, 'utf8')).trim().split('\n').length;
  const lines = Array.from({ length: count }, (_, i) =>
    JSON.stringify({
      sessionId,
      seq: lastSeq + i + 1,
      ts: '2026-12-01T00:00:00.000Z',
      type: 'user_message',
      text: `question ${i + 1}`,
      by: 'ana',
      mode: 'turn',
    }),
  );
  await appendFile(logPath, `${lines.join('\n')}\n`);
}
