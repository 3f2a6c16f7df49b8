import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemOf, toolNames } from './mcp-harness.js';
import { fakeModelBed, startTestServer } from './server-harness.js';

/**
 * web_search and web_fetch through a real turn: a local page server and a SearXNG-format
 * backend on loopback, the openai SDK against the fake model, the server's gate in between.
 */
const bed = fakeModelBed({ fakePer: 'file' });
let web: Server;
let webUrl = '';

beforeAll(async () => {
  web = createServer((req, res) => {
    if (req.url?.startsWith('/search')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ results: [{ title: 'Tandem 2.0 released', url: `${webUrl}/news`, content: 'Tandem 2.0 is out.' }] }));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(
      `<html><head><title>News</title></head><body><article><h1>News</h1><p>${'Tandem 2.0 ships web tools today. '.repeat(10)}</p></article></body></html>`,
    );
  });
  await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
  webUrl = `http://127.0.0.1:${(web.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => web.close(() => resolve())));

describe('web tools in a real turn', () => {
  it('searches without asking, fetches after a question, and refuses a private target when not allowed', async () => {
    const server = await startTestServer({
      env: { ...bed.env(), TANDEM_WEB_SEARCH: `searxng:${webUrl}` },
      settings: { webFetch: { allowHosts: ['127.0.0.1'] } },
    });
    bed.server = server;
    const alice = await server.connect('alice');
    const { session } = await alice.ok('session:create', {});
    await alice.ok('session:attach', { sessionId: session.id, role: 'driver' });
    alice.approveAll(session.id);
    bed.fake.enqueue(
      { toolCalls: [{ name: 'web_search', args: { query: 'tandem release' } }] },
      { toolCalls: [{ name: 'web_fetch', args: { url: `${webUrl}/news` } }] },
      { toolCalls: [{ name: 'web_fetch', args: { url: `http://localhost:${(web.address() as AddressInfo).port}/news` } }] },
      { text: 'Tandem 2.0 is out.' },
    );
    await alice.ok('session:send', { sessionId: session.id, text: 'what is new in tandem?' });
    await alice.waitFor((e) => e.type === 'turn_done');
    const results = alice.persisted().filter((e) => e.type === 'tool_result');
    expect(results.map((e) => e.type === 'tool_result' && [e.tool, e.isError])).toEqual([
      ['web_search', false],
      ['web_fetch', false],
      ['web_fetch', true],
    ]);
    const [search, fetched, refused] = results.map((e) => (e.type === 'tool_result' ? e.output : ''));
    expect(search).toContain('1. Tandem 2.0 released');
    expect(fetched).toContain('Tandem 2.0 ships web tools today.');
    expect(refused).toContain('localhost resolves to 127.0.0.1');
    const asked = alice
      .persisted()
      .filter((e) => e.type === 'permission_request')
      .map((e) => (e.type === 'permission_request' ? e.tool : ''));
    expect(asked).not.toContain('web_search');
    expect(asked).toContain('web_fetch');
    expect(toolNames(bed.fake.requests[0]!)).not.toContain('get_calendar_events');
    expect(systemOf(bed.fake.requests[0]!)).toContain('get_calendar_events: add "calendars"');
    // The model saw the search results in its next request.
    expect(JSON.stringify(bed.fake.requests[1]?.body)).toContain('Tandem 2.0 released');
  });

  it('reads the configured calendar in the user zone without asking', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'tandem-cal-'));
    const file = path.join(dir, 'team.ics');
    await writeFile(
      file,
      [
        'BEGIN:VCALENDAR',
        'VERSION:2.0',
        'PRODID:-//t//t',
        'BEGIN:VEVENT',
        'UID:p@t',
        'DTSTAMP:20261101T000000Z',
        'DTSTART:20261203T010000Z',
        'DTEND:20261203T020000Z',
        'SUMMARY:Planning',
        'END:VEVENT',
        'END:VCALENDAR',
      ].join('\r\n'),
    );
    const again = await startTestServer({ env: bed.env(), settings: { calendars: [{ name: 'Team', ics: file }], timezone: 'Asia/Tokyo' } });
    bed.server = again;
    const alice = await again.connect('alice');
    const { session } = await alice.ok('session:create', {});
    await alice.ok('session:attach', { sessionId: session.id, role: 'driver' });
    bed.fake.enqueue({ toolCalls: [{ name: 'get_calendar_events', args: { from: '2026-12-03', to: '2026-12-03' } }] }, { text: 'Planning at 10.' });
    const first = bed.fake.requests.length;
    await alice.ok('session:send', { sessionId: session.id, text: 'what is on tomorrow?' });
    await alice.waitFor((e) => e.type === 'turn_done');
    // Offered once a calendar is configured (the web test's server, without one, did not offer it).
    expect(toolNames(bed.fake.requests[first]!)).toContain('get_calendar_events');
    expect(systemOf(bed.fake.requests[first]!)).not.toContain('get_calendar_events: add');
    const result = alice.persisted().find((e) => e.type === 'tool_result');
    expect(result?.type === 'tool_result' && result.output).toContain('- 2026-12-03T10:00:00+09:00 → 2026-12-03T11:00:00+09:00  Planning  [Team]');
    expect(alice.persisted().some((e) => e.type === 'permission_request')).toBe(false);
    await rm(dir, { recursive: true, force: true });
  });
});
