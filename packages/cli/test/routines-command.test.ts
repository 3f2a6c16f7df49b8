import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatRoutines } from '../src/commands/routines.js';
import { runTandem } from './cli-runner.js';
import { startServerFixture, type ServerFixture } from './server-fixture.js';

let fixture: ServerFixture;
beforeAll(async () => {
  fixture = await startServerFixture('routines-test');
}, 240_000);
afterAll(async () => {
  await fixture?.close();
});

describe('tandem routines', () => {
  it('lists none with a hint, prints JSON, and refuses to cancel an unknown id with the reason', async () => {
    const connection = ['--url', fixture.server.url, '--token', fixture.tokens.control];
    const empty = await runTandem(['routines', ...connection]);
    expect(empty).toMatchObject({ code: 0 });
    expect(empty.stdout).toContain('no routines (ask the agent');
    const json = await runTandem(['routines', 'list', '--json', ...connection]);
    expect(JSON.parse(json.stdout)).toEqual([]);
    const cancel = await runTandem(['routines', 'cancel', 'r-nope', ...connection]);
    expect(cancel.code).not.toBe(0);
    expect(cancel.stderr).toContain('no routine has the id "r-nope"');
  }, 180_000);

  it('formats a routine with its schedule in words, next and last run, note and prompt', () => {
    expect(
      formatRoutines([
        {
          id: 'r-1',
          name: 'inbox',
          schedule: '0 9 * * 1-5',
          prompt: 'summarise my inbox',
          sessionId: 's1',
          timezone: 'Europe/Berlin',
          status: 'active',
          description: 'At 09:00, Monday through Friday',
          nextRunAt: '2026-12-03T09:00:00+01:00',
          lastRunAt: '2026-12-02T09:00:00+01:00',
          note: 'last run started a turn at 2026-12-02T09:00:00+01:00',
        },
      ]),
    ).toBe(
      'r-1  inbox  active  At 09:00, Monday through Friday [0 9 * * 1-5, Europe/Berlin]\n  next: 2026-12-03T09:00:00+01:00\n  last: 2026-12-02T09:00:00+01:00\n  last run started a turn at 2026-12-02T09:00:00+01:00\n  session s1: summarise my inbox\n',
    );
  });
});
