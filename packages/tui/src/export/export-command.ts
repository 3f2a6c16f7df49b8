import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { SlashHost } from '../slash-host.js';
import { exportFileName } from './export-file.js';
import { fetchSessionEvents } from './session-events.js';
import { transcriptJson } from './transcript-json.js';
import { transcriptMarkdown } from './transcript-markdown.js';

/**
 * `/export [FILE]`: the whole session (every persisted event, not only what this screen holds)
 * as a markdown transcript, or as JSON when FILE ends in `.json`, written on this machine:
 * FILE relative to the folder the TUI was started in, else a name from the title and the time.
 * An existing file is never overwritten.
 */
export function exportTranscript(tui: SlashHost, file: string | null, cwd = process.cwd()): Promise<void> {
  return tui.run('/export', async () => {
    const session = tui.state.session;
    if (!session) throw new Error('not attached to a session yet');
    const format = file?.toLowerCase().endsWith('.json') ? 'json' : 'md';
    const path = resolve(cwd, file ?? exportFileName(session, format));
    const events = await fetchSessionEvents((command, payload, timeoutMs) => tui.request(command, payload, timeoutMs), session.id);
    const text = format === 'json' ? transcriptJson(session, events) : transcriptMarkdown(session, events);
    try {
      await writeFile(path, text, { flag: 'wx' });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') throw new Error(`${path} exists; give another name (/export FILE)`);
      throw err;
    }
    tui.notice('info', `/export: ${events.length} events written to ${path} (${format === 'json' ? 'JSON' : 'markdown'})`);
  });
}
