import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import { davLibrary } from './calendar-libraries.js';
import type { CalendarRange } from './calendar-range.js';
import type { CalendarSource } from './calendar-config.js';

const FETCH_TIMEOUT_MS = 20_000;

/**
 * The iCalendar texts of one source for a range: the file or URL of an `ics` source (whole
 * calendar), or the objects a CalDAV server returns for the range across its calendars.
 */
export async function loadSource(
  source: CalendarSource,
  range: CalendarRange,
  env: Record<string, string | undefined>,
  signal: AbortSignal,
): Promise<string[]> {
  if ('ics' in source) return [await loadIcs(source.ics, signal)];
  const password = env[source.caldav.passwordEnv];
  if (!password) throw new Error(`no password: set ${source.caldav.passwordEnv} in the server's environment`);
  try {
    return await loadCalDav(source.caldav.url, source.caldav.username, password, range, signal);
  } catch (err) {
    if (signal.aborted) throw err;
    const host = new URL(source.caldav.url).host;
    throw new Error(
      `CalDAV at ${host}: ${err instanceof Error ? err.message : String(err)} — check the URL, the user name and the password in ${source.caldav.passwordEnv}`,
    );
  }
}

async function loadCalDav(serverUrl: string, username: string, password: string, range: CalendarRange, signal: AbortSignal): Promise<string[]> {
  const { createDAVClient } = await davLibrary();
  const client = await createDAVClient({
    serverUrl,
    credentials: { username, password },
    authMethod: 'Basic',
    defaultAccountType: 'caldav',
  });
  const calendars = await client.fetchCalendars();
  const texts: string[] = [];
  for (const calendar of calendars) {
    if (signal.aborted) throw signal.reason;
    const objects = await client.fetchCalendarObjects({
      calendar,
      timeRange: { start: new Date(range.fromMs).toISOString(), end: new Date(range.toMs).toISOString() },
      expand: false,
    });
    for (const object of objects) if (typeof object.data === 'string' && object.data.includes('BEGIN:VCALENDAR')) texts.push(object.data);
  }
  return texts;
}

async function loadIcs(where: string, signal: AbortSignal): Promise<string> {
  if (/^https?:\/\//i.test(where) || /^webcal:\/\//i.test(where)) {
    const url = where.replace(/^webcal:/i, 'https:');
    const response = await fetch(url, { signal: AbortSignal.any([signal, AbortSignal.timeout(FETCH_TIMEOUT_MS)]) });
    if (!response.ok) throw new Error(`${new URL(url).host} answered HTTP ${response.status}`);
    return response.text();
  }
  const file = where.startsWith('~/') ? path.join(homedir(), where.slice(2)) : where;
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
    throw new Error(`cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
}
