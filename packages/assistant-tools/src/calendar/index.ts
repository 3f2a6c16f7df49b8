export { getCalendarEventsTool } from './get-calendar-events.js';
export { CalendarsSettingSchema, type CalendarSettings, type CalendarSource } from './calendar-config.js';
export { isoInZone, isValidZone } from './zoned-time.js';
