import { isValidZone } from '@tandem/assistant-tools';
import type { ServerSettings } from './server-settings.js';

/** The user's zone for calendars and routines: config.json `timezone`, else `TZ`, else the server's own. */
export function userTimeZone(settings: ServerSettings, env: Record<string, string | undefined>): string {
  if (settings.timezone) return settings.timezone;
  const tz = env.TZ?.replace(/^:/, '');
  if (tz && isValidZone(tz)) return tz;
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}
