import { z } from 'zod';

const name = z.string().min(1).max(100);

/** config.json `calendars`: each an ICS file or URL (e.g. a calendar's secret address), or a CalDAV account. */
export const CalendarSourceSchema = z.union([
  z.object({ name, ics: z.string().min(1) }).strict(),
  z
    .object({
      name,
      caldav: z
        .object({
          url: z.string().url(),
          username: z.string().min(1),
          passwordEnv: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be a variable name'),
        })
        .strict(),
    })
    .strict(),
]);
export type CalendarSource = z.infer<typeof CalendarSourceSchema>;

export const CalendarsSettingSchema = z.array(CalendarSourceSchema).max(50);

/** The calendar tool's host service. */
export interface CalendarServices {
  calendar?: CalendarSettings;
}

declare module '@tandem/core' {
  interface ToolServices extends CalendarServices {}
}

/** What the host hands the calendar tool (`services.calendar`). */
export interface CalendarSettings {
  calendars: CalendarSource[];
  /** The user's IANA zone: config.json `timezone`, else `TZ`, else the server's zone. */
  timezone: string;
  /** Environment for CalDAV password variables. */
  env: Record<string, string | undefined>;
}
