import type { RoutineScheduler } from '../routines/routine-scheduler.js';
import { CommandError } from './command-error.js';
import type { HandlerMap } from './dispatch.js';

export function routineHandlers(routines: RoutineScheduler): HandlerMap {
  return {
    'routine:list': () => ({ routines: routines.list() }),
    'routine:cancel': async ({ id }, { client }) => {
      try {
        return { routine: await routines.cancel(id, client.name) };
      } catch (err) {
        throw new CommandError('not_found', (err as Error).message);
      }
    },
  };
}
