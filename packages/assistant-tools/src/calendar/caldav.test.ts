import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeHarness, type Harness } from '@tandem/coding-tools/testing/tool-harness';
import { startWebServer, type Route, type WebTestServer } from '../web/web-test-server.test-helper.js';
import { getCalendarEventsTool } from './get-calendar-events.js';

/**
 * A small CalDAV server on loopback answering the discovery a CalDAV client does (principal,
 * calendar home, calendars) and a calendar-query REPORT, with Basic auth.
 */
const EVENT = [
  'BEGIN:VCALENDAR',
  'VERSION:2.0',
  'PRODID:-//tandem//caldav//EN',
  'BEGIN:VEVENT',
  'UID:dentist@t',
  'DTSTAMP:20261101T000000Z',
  'DTSTART;TZID=Europe/Paris:20261203T153000',
  'DTEND;TZID=Europe/Paris:20261203T160000',
  'SUMMARY:Dentist',
  'END:VEVENT',
  'END:VCALENDAR',
].join('\r\n');

const AUTH = `Basic ${Buffer.from('ana:s3cret').toString('base64')}`;
const multistatus = (body: string) =>
  `<?xml version="1.0" encoding="utf-8"?><d:multistatus xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav" xmlns:cs="http://calendarserver.org/ns/">${body}</d:multistatus>`;
const response = (href: string, props: string) =>
  `<d:response><d:href>${href}</d:href><d:propstat><d:prop>${props}</d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>`;

function dav(): Route {
  return (req, res, body) => {
    if (req.headers.authorization !== AUTH) {
      res.writeHead(401, { 'www-authenticate': 'Basic realm="cal"' }).end();
      return;
    }
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const send = (xml: string) => res.writeHead(207, { 'content-type': 'application/xml; charset=utf-8' }).end(xml);
    if (req.method === 'PROPFIND' && body.includes('current-user-principal'))
      return send(multistatus(response(path, '<d:current-user-principal><d:href>/dav/principals/ana/</d:href></d:current-user-principal>')));
    if (req.method === 'PROPFIND' && body.includes('calendar-home-set'))
      return send(multistatus(response(path, '<c:calendar-home-set><d:href>/dav/calendars/ana/</d:href></c:calendar-home-set>')));
    if (req.method === 'PROPFIND' && path === '/dav/calendars/ana/') {
      return send(
        multistatus(
          response('/dav/calendars/ana/', '<d:resourcetype><d:collection/></d:resourcetype>') +
            response(
              '/dav/calendars/ana/personal/',
              '<d:displayname>Personal</d:displayname><d:resourcetype><d:collection/><c:calendar/></d:resourcetype><c:supported-calendar-component-set><c:comp name="VEVENT"/></c:supported-calendar-component-set><cs:getctag>1</cs:getctag>',
            ),
        ),
      );
    }
    if (req.method === 'REPORT' && path === '/dav/calendars/ana/personal/') {
      return send(multistatus(response('/dav/calendars/ana/personal/dentist.ics', `<d:getetag>"1"</d:getetag><c:calendar-data>${EVENT}</c:calendar-data>`)));
    }
    res.writeHead(404).end();
  };
}

let server: WebTestServer;
let h: Harness;

beforeAll(async () => {
  const route = dav();
  server = await startWebServer({ '/dav/': route, '/dav/principals/ana/': route, '/dav/calendars/ana/': route, '/dav/calendars/ana/personal/': route });
  h = await makeHarness();
});

afterAll(async () => {
  await server.close();
  await h.cleanup();
});

describe('get_calendar_events over CalDAV', () => {
  it('discovers the calendars, asks for the range and lists the events, the password from a named variable', async () => {
    const calendar = {
      calendars: [{ name: 'Cloud', caldav: { url: `${server.url}/dav/`, username: 'ana', passwordEnv: 'CAL_PW' } }],
      timezone: 'Europe/Paris',
      env: { CAL_PW: 's3cret' },
    };
    const r = await h.run(getCalendarEventsTool, { from: '2026-12-03', to: '2026-12-03' }, { services: { calendar } });
    expect(r.isError, r.output).toBe(false);
    expect(r.output.split('\n').filter((l) => l.startsWith('- '))).toEqual(['- 2026-12-03T15:30:00+01:00 → 2026-12-03T16:00:00+01:00  Dentist  [Cloud]']);
    expect(server.requests.some((r) => r.startsWith('REPORT /dav/calendars/ana/personal/'))).toBe(true);
  });

  it('says which variable to set when the password is missing, and names a refused login', async () => {
    const missing = { calendars: [{ name: 'Cloud', caldav: { url: `${server.url}/dav/`, username: 'ana', passwordEnv: 'CAL_PW' } }], timezone: 'UTC', env: {} };
    const r = await h.run(getCalendarEventsTool, { from: '2026-12-03', to: '2026-12-03' }, { services: { calendar: missing } });
    expect(r.isError).toBe(true);
    expect(r.output).toContain('Could not read calendar Cloud: no password: set CAL_PW');
    const wrong = { ...missing, env: { CAL_PW: 'nope' } };
    const w = await h.run(getCalendarEventsTool, { from: '2026-12-03', to: '2026-12-03' }, { services: { calendar: wrong } });
    expect(w.isError).toBe(true);
    expect(w.output).toContain('Could not read calendar Cloud: CalDAV at 127.0.0.1');
    expect(w.output).toContain('check the URL, the user name and the password in CAL_PW');
  });
});
