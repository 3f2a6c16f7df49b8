import type { ServerSettings } from './server-settings.js';

export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** The user's zone for calendars and routines: config.json `timezone`, else `TZ`, else the server's own. */
export function userTimeZone(settings: ServerSettings, env: Record<string, string | undefined>): string {
  if (settings.timezone) return settings.timezone;
  const tz = env.TZ?.replace(/^:/, '');
  if (tz && isTimeZone(tz)) return tz;
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}
