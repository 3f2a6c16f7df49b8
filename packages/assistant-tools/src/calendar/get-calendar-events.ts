import { z } from 'zod';
import { defineTool, ToolError } from '@tandem/core';
import { parseRange } from './calendar-range.js';
import type { CalendarSettings } from './calendar-config.js';
import { icalLibrary } from './calendar-libraries.js';
import { loadSource } from './calendar-sources.js';
import { expandEvents, type CalendarEvent } from './expand-events.js';
import { isoInZone, isValidZone } from './zoned-time.js';

const MAX_EVENTS = 200;

export const getCalendarEventsTool = defineTool({
  name: 'get_calendar_events',
  description: `Reads the user's calendars (configured in config.json "calendars") for a date range and lists the events in order: start and end in the user's time zone (ISO 8601), title, calendar, location; all-day events by day. Recurring events are expanded. Use it for questions about the user's schedule; dates may be given as 2026-12-02 (that whole day) or 2026-12-02T09:00.`,
  schema: z.object({
    from: z.string().min(1).describe('Start: ISO 8601 date or date-time (a date means the start of that day)'),
    to: z.string().min(1).describe('End: ISO 8601 date or date-time (a date includes that whole day)'),
  }),
  danger: 'safe',
  readOnly: true,
  kind: 'read',
  summary: (args) => `${args.from} – ${args.to}`,
  setup: (services) =>
    (services.calendar?.calendars.length ?? 0) > 0 ? undefined : 'add "calendars": [{ "name": "Work", "ics": PATH_OR_URL }] to config.json',
  async execute(args, ctx) {
    const settings: CalendarSettings | undefined = ctx.services.calendar;
    if (!settings || settings.calendars.length === 0) {
      throw new ToolError(
        'no calendars are configured; add "calendars": [{ "name": "Work", "ics": "https://…/basic.ics" }] to config.json in the Tandem data directory (see the calendar docs)',
      );
    }
    const zone = isValidZone(settings.timezone) ? settings.timezone : 'UTC';
    let range;
    try {
      range = parseRange(args.from, args.to, zone);
    } catch (err) {
      throw new ToolError((err as Error).message);
    }
    await icalLibrary();
    const failures: string[] = [];
    const events: CalendarEvent[] = [];
    await Promise.all(
      settings.calendars.map(async (source) => {
        try {
          for (const text of await loadSource(source, range, settings.env, ctx.signal)) events.push(...expandEvents(text, source.name, range, zone));
        } catch (err) {
          if (ctx.signal.aborted) throw err;
          failures.push(`${source.name}: ${err instanceof Error ? err.message : String(err)}`);
        }
      }),
    );
    events.sort((a, b) => a.startMs - b.startMs || Number(b.allDay) - Number(a.allDay) || a.title.localeCompare(b.title));
    const shown = events.slice(0, MAX_EVENTS);
    const lines = [
      `${events.length} event${events.length === 1 ? '' : 's'} from ${isoInZone(range.fromMs, zone)} to ${isoInZone(range.toMs, zone)} (${zone})` +
        (events.length > shown.length ? `; the first ${shown.length} are listed` : ''),
    ];
    for (const failure of failures) lines.push(`Could not read calendar ${failure}`);
    for (const e of shown) lines.push(`- ${when(e, zone)}  ${e.title}  [${e.calendar}]${e.location ? `  @ ${e.location}` : ''}`);
    // Only when every calendar failed is the call an error; otherwise the others still answer.
    return { output: lines.join('\n'), isError: failures.length === settings.calendars.length };
  },
});

function when(e: CalendarEvent, zone: string): string {
  if (e.allDay) return e.firstDay === e.lastDay ? `${e.firstDay} (all day)` : `${e.firstDay} → ${e.lastDay} (all day)`;
  return `${isoInZone(e.startMs, zone)} → ${isoInZone(e.endMs, zone)}`;
}
