import type IcalModule from 'ical.js';
import { icalLibrary } from './calendar-libraries.js';
import type { CalendarRange } from './calendar-range.js';
import { dayInZone, epochOfWallClock, isValidZone } from './zoned-time.js';

export interface CalendarEvent {
  calendar: string;
  title: string;
  /** Instants for timed events; for all-day events the UTC midnight of the day (for sorting only). */
  startMs: number;
  endMs: number;
  allDay: boolean;
  /** All-day events: first and last day (inclusive), `YYYY-MM-DD`, as written in the calendar. */
  firstDay?: string;
  lastDay?: string;
  location?: string;
}

/** Occurrences looked at per recurring event at most (a daily event over 25 years). */
const MAX_OCCURRENCES = 10_000;

type IcalTime = InstanceType<typeof IcalModule.Time>;
type IcalEvent = InstanceType<typeof IcalModule.Event>;

/**
 * Every event of one iCalendar text that overlaps `range`, recurring events expanded (RRULE,
 * RDATE, EXDATE, and RECURRENCE-ID overrides for moved or renamed occurrences). Times in a
 * TZID zone are read in that zone; floating times in the user's zone; all-day events keep
 * their calendar day (never shifted through UTC).
 */
export function expandEvents(icsText: string, calendar: string, range: CalendarRange, userZone: string): CalendarEvent[] {
  const ICAL = ical();
  const root = new ICAL.Component(ICAL.parse(icsText));
  for (const tz of root.getAllSubcomponents('vtimezone')) {
    const zone = new ICAL.Timezone(tz);
    if (!ICAL.TimezoneService.has(zone.tzid)) ICAL.TimezoneService.register(tz);
  }
  const events = root.getAllSubcomponents('vevent').map((v) => new ICAL.Event(v));
  const exceptions = events.filter((e) => e.isRecurrenceException());
  const out: CalendarEvent[] = [];
  for (const event of events) {
    if (event.isRecurrenceException()) continue;
    if (isCancelled(event)) continue;
    for (const ex of exceptions) if (ex.uid === event.uid) event.relateException(ex);
    if (!event.isRecurring()) {
      const one = occurrence(event, event.startDate, event.endDate, calendar, userZone);
      if (overlaps(one, range, userZone)) out.push(one);
      continue;
    }
    // Occurrences come in the order of their original start; stop past the range. An override
    // whose original slot is later but which was moved into the range is picked up after.
    const iterator = event.iterator();
    let stoppedAt = Number.POSITIVE_INFINITY;
    for (let i = 0, next = iterator.next(); next && i < MAX_OCCURRENCES; i++, next = iterator.next()) {
      const original = originalStartMs(next, tzidOf(event, 'dtstart'), userZone);
      if (original >= range.toMs) {
        stoppedAt = original;
        break;
      }
      const details = event.getOccurrenceDetails(next);
      if (isCancelled(details.item)) continue;
      const one = occurrence(details.item, details.startDate, details.endDate, calendar, userZone);
      if (overlaps(one, range, userZone)) out.push(one);
    }
    for (const ex of exceptions) {
      if (ex.uid !== event.uid || isCancelled(ex) || originalStartMs(ex.recurrenceId, tzidOf(ex, 'recurrence-id'), userZone) < stoppedAt) continue;
      const one = occurrence(ex, ex.startDate, ex.endDate, calendar, userZone);
      if (overlaps(one, range, userZone)) out.push(one);
    }
  }
  return out;
}

function isCancelled(event: IcalEvent): boolean {
  return String(event.component.getFirstPropertyValue('status') ?? '').toUpperCase() === 'CANCELLED';
}

function originalStartMs(time: IcalTime, tzid: string | undefined, userZone: string): number {
  return time.isDate ? Date.UTC(time.year, time.month - 1, time.day) : epochOf(time, tzid, userZone);
}

/** The TZID parameter of a date-time property (occurrence times are in their DTSTART's zone). */
function tzidOf(event: IcalEvent, property: 'dtstart' | 'dtend' | 'recurrence-id'): string | undefined {
  const value = event.component.getFirstProperty(property)?.getParameter('tzid');
  return typeof value === 'string' ? value : undefined;
}

function occurrence(item: IcalEvent, start: IcalTime, end: IcalTime | null, calendar: string, userZone: string): CalendarEvent {
  const title = item.summary || '(no title)';
  const location = item.location || undefined;
  if (start.isDate) {
    const endDay = end && end.isDate && end.compare(start) > 0 ? end.clone() : start.clone();
    if (!(end && end.isDate && end.compare(start) > 0)) endDay.day += 1;
    const lastDay = endDay.clone();
    lastDay.day -= 1;
    return {
      calendar,
      title,
      startMs: Date.UTC(start.year, start.month - 1, start.day),
      endMs: Date.UTC(endDay.year, endDay.month - 1, endDay.day),
      allDay: true,
      firstDay: start.toString(),
      lastDay: lastDay.toString(),
      ...(location ? { location } : {}),
    };
  }
  const startZone = tzidOf(item, 'dtstart');
  const endZone = item.component.hasProperty('dtend') ? tzidOf(item, 'dtend') : startZone;
  const startMs = epochOf(start, startZone, userZone);
  const endMs = end ? Math.max(epochOf(end, endZone, userZone), startMs) : startMs;
  return { calendar, title, startMs, endMs, allDay: false, ...(location ? { location } : {}) };
}

/** The instant of a date-time: UTC, its TZID (IANA or a VTIMEZONE from the file), or floating in the user's zone. */
export function epochOf(time: IcalTime, tzid: string | undefined, userZone: string): number {
  const ICAL = ical();
  if (time.zone === ICAL.Timezone.utcTimezone || time.zone?.tzid === 'UTC') return time.toUnixTime() * 1000;
  const wall = { year: time.year, month: time.month, day: time.day, hour: time.hour, minute: time.minute, second: time.second };
  if (tzid && isValidZone(tzid)) return epochOfWallClock(wall, tzid);
  if (tzid && ICAL.TimezoneService.has(tzid)) {
    const zoned = time.clone();
    zoned.zone = ICAL.TimezoneService.get(tzid)!;
    return zoned.toUnixTime() * 1000;
  }
  return epochOfWallClock(wall, userZone);
}

/**
 * All-day events are compared by calendar day in the user's zone: an event on Dec 25 is in a
 * range that covers any part of Dec 25 there, wherever the user is.
 */
function overlaps(event: CalendarEvent, range: CalendarRange, userZone: string): boolean {
  if (!event.allDay) {
    if (event.startMs === event.endMs) return event.startMs >= range.fromMs && event.startMs < range.toMs;
    return event.endMs > range.fromMs && event.startMs < range.toMs;
  }
  const firstDay = utcMidnight(dayInZone(range.fromMs, userZone));
  const dayAfterLast = utcMidnight(dayInZone(range.toMs - 1, userZone)) + 86_400_000;
  return event.startMs < dayAfterLast && event.endMs > firstDay;
}

function utcMidnight(day: string): number {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return Date.UTC(y, m - 1, d);
}

/** ical.js, which the caller has loaded (`await icalLibrary()`) before expanding anything. */
function ical(): typeof IcalModule {
  const loaded = icalLibrary.current();
  if (!loaded) throw new Error('ical.js is not loaded yet: await icalLibrary() before expanding events');
  return loaded;
}
