/**
 * Routines (requirements K3) are scheduled by the host: it stores them durably and runs each as a turn
 * in the session that created it. The routine tools only talk to this port.
 */
export interface RoutineView {
  id: string;
  name: string;
  schedule: string;
  prompt: string;
  timezone: string;
  sessionId: string;
  /** `active`, `done` (a single run that happened), `cancelled`, or `disabled` (see `note`). */
  status: 'active' | 'done' | 'cancelled' | 'disabled';
  nextRunAt?: string;
  lastRunAt?: string;
  /** The schedule in words, e.g. "At 09:00, Monday through Friday". */
  description: string;
  /** Why it is disabled, or how the last run ended (ran, skipped: …, missed …). */
  note?: string;
}

export interface RoutineInput {
  name: string;
  schedule: string;
  prompt: string;
  timezone?: string;
}

export interface RoutineHost {
  /** Validates and stores; throws an Error whose message says what is wrong with the schedule. */
  create(input: RoutineInput, sessionId: string, by: string): Promise<{ routine: RoutineView; nextRuns: string[] }>;
  list(): RoutineView[];
  /** Throws when no routine has that id. */
  cancel(id: string, by: string): Promise<RoutineView>;
}
