import { z } from 'zod';
import type { RoutineHost, RoutineView } from './routine-host.js';
import { defineTool, ToolError, type ToolServices } from '@tandem/core';
import { capSummary, oneLine } from '@tandem/shared';

/** The routine tools' host service: the server's scheduler. */
export interface RoutineServices {
  routines?: RoutineHost;
}

declare module '@tandem/core' {
  interface ToolServices extends RoutineServices {}
}

function hostOf(services: ToolServices): RoutineHost {
  if (!services.routines) throw new ToolError('routines are not available in this host (no scheduler); they need a tandem server');
  return services.routines;
}

async function hostCall<T>(fn: () => Promise<T> | T): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof ToolError) throw err;
    throw new ToolError(err instanceof Error ? err.message : String(err));
  }
}

export function describeRoutine(r: RoutineView): string {
  const lines = [`${r.name} (${r.id}) — ${r.status}: ${r.description} [${r.schedule}, ${r.timezone}]`];
  if (r.nextRunAt) lines.push(`  next run: ${r.nextRunAt}`);
  if (r.lastRunAt) lines.push(`  last run: ${r.lastRunAt}`);
  if (r.note) lines.push(`  ${r.note}`);
  lines.push(`  prompt: ${r.prompt}`);
  return lines.join('\n');
}

export const createRoutineTool = defineTool({
  name: 'create_routine',
  description: `Schedules a prompt to run later as a turn in this session, once or repeatedly (e.g. "every weekday at 9, summarise my inbox"). Turn the user's words into a cron expression (5 fields "min hour day month weekday", or 6 with seconds first) or an ISO date-time for a single run. The answer states the schedule in words and the next three run times: tell the user, so a wrong reading is caught at once. Prefer checking list_routines first rather than adding a duplicate.`,
  schema: z.object({
    name: z.string().min(1).max(80).describe('Short name, e.g. "inbox-summary"'),
    schedule: z.string().min(1).max(100).describe('Cron expression or ISO date-time'),
    prompt: z.string().min(1).max(10_000).describe('What to do at each run, as a message to you'),
    timezone: z.string().optional().describe("IANA zone for the schedule; default the user's zone"),
  }),
  danger: 'medium',
  readOnly: false,
  kind: 'other',
  summary: (args) => capSummary(oneLine(`${args.name}: ${args.schedule}`)),
  async execute(args, ctx) {
    const host = hostOf(ctx.services);
    const { routine, nextRuns } = await hostCall(() => host.create(args, ctx.sessionId, 'model'));
    const runs = nextRuns.length > 0 ? nextRuns.map((t) => `  - ${t}`).join('\n') : '  (none: the time is in the past)';
    return `Created routine ${routine.name} (${routine.id}): ${routine.description} (${routine.timezone}).\nNext runs:\n${runs}`;
  },
});

export const listRoutinesTool = defineTool({
  name: 'list_routines',
  description:
    'Lists the scheduled routines of this server: name, id, schedule in words, status, next and last run, prompt. Use it before creating or cancelling a routine.',
  schema: z.object({}),
  danger: 'safe',
  readOnly: true,
  kind: 'read',
  summary: () => '',
  async execute(_args, ctx) {
    const routines = await hostCall(() => hostOf(ctx.services).list());
    if (routines.length === 0) return 'No routines.';
    return routines.map(describeRoutine).join('\n');
  },
});

export const cancelRoutineTool = defineTool({
  name: 'cancel_routine',
  description:
    'Cancels a routine by its id (from list_routines); it will not run again. Prefer this over creating a replacement when the user wants a routine stopped.',
  schema: z.object({ id: z.string().min(1).describe('The routine id') }),
  danger: 'medium',
  readOnly: false,
  kind: 'other',
  summary: (args) => args.id,
  async execute(args, ctx) {
    const routine = await hostCall(() => hostOf(ctx.services).cancel(args.id, 'model'));
    return `Cancelled routine ${routine.name} (${routine.id}).`;
  },
});
