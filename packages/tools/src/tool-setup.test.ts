import { describe, expect, it } from 'vitest';
import { builtinTools } from './builtin-tools.js';
import { isOffered, notSetUp } from '@tandem/core';

const bridge = { call: async () => ({ output: 'ok' }) };
const calendar = { calendars: [{ name: 'Work', ics: '/w.ics' }], timezone: 'UTC', env: {} };

describe('tools that wait for setting up', () => {
  it('offers the calendar and messaging tools only once configured, and groups the others by how', () => {
    const tools = builtinTools();
    const waiting = (services: object) => tools.filter((t) => !isOffered(t, services)).map((t) => t.name);
    expect(waiting({})).toEqual(['get_calendar_events', 'whatsapp_send', 'whatsapp_search', 'whatsapp_latest', 'whatsapp_messages']);
    expect(waiting({ calendar: { ...calendar, calendars: [] } })).toContain('get_calendar_events');
    expect(waiting({ calendar, messaging: bridge })).toEqual([]);
    expect(notSetUp(tools, { calendar }).map((w) => w.names)).toEqual([['whatsapp_send', 'whatsapp_search', 'whatsapp_latest', 'whatsapp_messages']]);
    expect(notSetUp(tools, { messaging: bridge })).toEqual([
      { names: ['get_calendar_events'], how: 'add "calendars": [{ "name": "Work", "ics": PATH_OR_URL }] to config.json' },
    ]);
  });
});
