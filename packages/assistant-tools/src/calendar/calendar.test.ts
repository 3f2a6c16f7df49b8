import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeHarness, type Harness } from '@tandem/coding-tools/testing/tool-harness';
import { startWebServer, type WebTestServer } from '../web/web-test-server.test-helper.js';
import type { CalendarSettings } from './calendar-config.js';
import { getCalendarEventsTool } from './get-calendar-events.js';

const ics = (...events: string[]) => ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//tandem//test//EN', ...events, 'END:VCALENDAR'].join('\r\n');
const vevent = (...lines: string[]) => ['BEGIN:VEVENT', ...lines, 'END:VEVENT'].join('\r\n');

// Weekly on Tuesdays 09:00 Berlin, 5 times from Dec 1; Dec 8 cancelled (EXDATE); Dec 15 moved to 14:00.
const standup = ics(
  vevent(
    'UID:standup@t',
    'DTSTAMP:20261101T000000Z',
    'DTSTART;TZID=Europe/Berlin:20261201T090000',
    'DTEND;TZID=Europe/Berlin:20261201T093000',
    'RRULE:FREQ=WEEKLY;COUNT=5',
    'EXDATE;TZID=Europe/Berlin:20261208T090000',
    'SUMMARY:Standup',
  ),
  vevent(
    'UID:standup@t',
    'DTSTAMP:20261101T000000Z',
    'RECURRENCE-ID;TZID=Europe/Berlin:20261215T090000',
    'DTSTART;TZID=Europe/Berlin:20261215T140000',
    'DTEND;TZID=Europe/Berlin:20261215T143000',
    'SUMMARY:Standup (moved)',
  ),
  vevent('UID:review@t', 'DTSTAMP:20261101T000000Z', 'DTSTART:20261202T160000Z', 'DTEND:20261202T170000Z', 'SUMMARY:Design review', 'LOCATION:Room 4'),
);
const holidays = ics(
  vevent('UID:xmas@t', 'DTSTAMP:20261101T000000Z', 'DTSTART;VALUE=DATE:20261225', 'DTEND;VALUE=DATE:20261226', 'SUMMARY:Christmas Day'),
  vevent('UID:trip@t', 'DTSTAMP:20261101T000000Z', 'DTSTART;VALUE=DATE:20261228', 'DTEND;VALUE=DATE:20261231', 'SUMMARY:Trip'),
);

let h: Harness;
let web: WebTestServer;
let workFile = '';

beforeAll(async () => {
  h = await makeHarness();
  workFile = path.join(h.outside, 'work.ics');
  await writeFile(workFile, standup);
  web = await startWebServer({ '/holidays.ics': (_req, res) => res.writeHead(200, { 'content-type': 'text/calendar' }).end(holidays) });
});

afterAll(async () => {
  await web.close();
  await h.cleanup();
});

function settings(timezone: string, calendars: CalendarSettings['calendars']): { services: { calendar: CalendarSettings } } {
  return { services: { calendar: { calendars, timezone, env: {} } } };
}

const eventLines = (output: string) => output.split('\n').filter((l) => l.startsWith('- '));

describe('get_calendar_events', () => {
  it('expands a weekly event with a cancelled and a moved occurrence, in the user zone, in order', async () => {
    const r = await h.run(getCalendarEventsTool, { from: '2026-12-01', to: '2026-12-31' }, settings('Europe/Berlin', [{ name: 'Work', ics: workFile }]));
    expect(r.isError).toBe(false);
    expect(eventLines(r.output)).toEqual([
      '- 2026-12-01T09:00:00+01:00 → 2026-12-01T09:30:00+01:00  Standup  [Work]',
      '- 2026-12-02T17:00:00+01:00 → 2026-12-02T18:00:00+01:00  Design review  [Work]  @ Room 4',
      '- 2026-12-15T14:00:00+01:00 → 2026-12-15T14:30:00+01:00  Standup (moved)  [Work]',
      '- 2026-12-22T09:00:00+01:00 → 2026-12-22T09:30:00+01:00  Standup  [Work]',
      '- 2026-12-29T09:00:00+01:00 → 2026-12-29T09:30:00+01:00  Standup  [Work]',
    ]);
    expect(r.output.split('\n')[0]).toBe('5 events from 2026-12-01T00:00:00+01:00 to 2027-01-01T00:00:00+01:00 (Europe/Berlin)');
  });

  it('shows the same instants in another zone', async () => {
    const r = await h.run(
      getCalendarEventsTool,
      { from: '2026-12-01T00:00:00Z', to: '2026-12-01T23:00:00Z' },
      settings('America/New_York', [{ name: 'Work', ics: workFile }]),
    );
    expect(eventLines(r.output)).toEqual(['- 2026-12-01T03:00:00-05:00 → 2026-12-01T03:30:00-05:00  Standup  [Work]']);
  });

  it('keeps all-day events on their own day in a zone far east of UTC (no day-early shift)', async () => {
    const url = `${web.url}/holidays.ics`;
    const r = await h.run(getCalendarEventsTool, { from: '2026-12-25', to: '2026-12-25' }, settings('Pacific/Auckland', [{ name: 'Home', ics: url }]));
    expect(eventLines(r.output)).toEqual(['- 2026-12-25 (all day)  Christmas Day  [Home]']);
    const before = await h.run(getCalendarEventsTool, { from: '2026-12-24', to: '2026-12-24' }, settings('Pacific/Auckland', [{ name: 'Home', ics: url }]));
    expect(eventLines(before.output)).toEqual([]);
    const trip = await h.run(getCalendarEventsTool, { from: '2026-12-30', to: '2027-01-02' }, settings('America/Los_Angeles', [{ name: 'Home', ics: url }]));
    expect(eventLines(trip.output)).toEqual(['- 2026-12-28 → 2026-12-30 (all day)  Trip  [Home]']);
  });

  it('names a calendar that fails while the others still answer; all failing is an error', async () => {
    const calendars = [
      { name: 'Work', ics: workFile },
      { name: 'Broken', ics: path.join(h.outside, 'missing.ics') },
      { name: 'Remote', ics: `${web.url}/nope.ics` },
    ];
    const r = await h.run(getCalendarEventsTool, { from: '2026-12-01', to: '2026-12-01' }, settings('Europe/Berlin', calendars));
    expect(r.isError).toBe(false);
    expect(r.output).toContain('Could not read calendar Broken: cannot read');
    expect(r.output).toContain('Could not read calendar Remote: 127.0.0.1');
    expect(r.output).toContain('answered HTTP 404');
    expect(eventLines(r.output)).toHaveLength(1);
    const all = await h.run(getCalendarEventsTool, { from: '2026-12-01', to: '2026-12-02' }, settings('UTC', calendars.slice(1)));
    expect(all.isError).toBe(true);
  });

  it('keeps local time across a DST change and reads a VTIMEZONE with a non-IANA name', async () => {
    const vtimezone = [
      'BEGIN:VTIMEZONE',
      'TZID:W. Europe Standard Time',
      'BEGIN:STANDARD',
      'DTSTART:16010101T030000',
      'TZOFFSETFROM:+0200',
      'TZOFFSETTO:+0100',
      'RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10',
      'END:STANDARD',
      'BEGIN:DAYLIGHT',
      'DTSTART:16010101T020000',
      'TZOFFSETFROM:+0100',
      'TZOFFSETTO:+0200',
      'RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3',
      'END:DAYLIGHT',
      'END:VTIMEZONE',
    ].join('\r\n');
    const text = ics(
      vtimezone,
      vevent(
        'UID:dst@t',
        'DTSTAMP:20260101T000000Z',
        'DTSTART;TZID=Europe/Berlin:20260324T090000',
        'DTEND;TZID=Europe/Berlin:20260324T100000',
        'RRULE:FREQ=WEEKLY;COUNT=2',
        'SUMMARY:Weekly',
      ),
      vevent(
        'UID:outlook@t',
        'DTSTAMP:20260101T000000Z',
        'DTSTART;TZID=W. Europe Standard Time:20260330T090000',
        'DTEND;TZID=W. Europe Standard Time:20260330T100000',
        'SUMMARY:Outlook meeting',
      ),
    );
    const file = path.join(h.outside, 'dst.ics');
    await writeFile(file, text);
    const r = await h.run(getCalendarEventsTool, { from: '2026-03-23', to: '2026-03-31' }, settings('UTC', [{ name: 'W', ics: file }]));
    expect(eventLines(r.output)).toEqual(
      [
        '- 2026-03-24T08:00:00+00:00 → 2026-03-24T09:00:00+00:00  Weekly  [W]',
        '- 2026-03-31T07:00:00+00:00 → 2026-03-31T08:00:00+00:00  Weekly  [W]',
        '- 2026-03-30T07:00:00+00:00 → 2026-03-30T08:00:00+00:00  Outlook meeting  [W]',
      ].sort((a, b) => a.localeCompare(b)),
    );
  });

  it('caps the list and gives the count, and refuses bad dates or no calendars with a sentence', async () => {
    const many = ics(
      vevent('UID:daily@t', 'DTSTAMP:20261101T000000Z', 'DTSTART:20260101T080000Z', 'DTEND:20260101T081000Z', 'RRULE:FREQ=HOURLY', 'SUMMARY:Ping'),
    );
    const file = path.join(h.outside, 'many.ics');
    await writeFile(file, many);
    const r = await h.run(getCalendarEventsTool, { from: '2026-01-01', to: '2026-01-31' }, settings('UTC', [{ name: 'Pings', ics: file }]));
    expect(r.output.split('\n')[0]).toContain('736 events');
    expect(r.output.split('\n')[0]).toContain('the first 200 are listed');
    expect(eventLines(r.output)).toHaveLength(200);
    expect((await h.run(getCalendarEventsTool, { from: 'next week', to: '2026-01-02' }, settings('UTC', [{ name: 'P', ics: file }]))).output).toContain(
      '"from" must be an ISO 8601 date',
    );
    expect((await h.run(getCalendarEventsTool, { from: '2026-01-02', to: '2026-01-01' }, settings('UTC', [{ name: 'P', ics: file }]))).output).toContain(
      'must be after',
    );
    expect((await h.run(getCalendarEventsTool, { from: '2026-01-01', to: '2026-01-02' })).output).toContain('no calendars are configured');
  });
});
