import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '@tandem/core';

const RunSchema = z.object({
  dueAt: z.string(),
  at: z.string(),
  outcome: z.enum(['started', 'ran', 'skipped', 'missed', 'failed']),
  detail: z.string().optional(),
});
export type RoutineRun = z.infer<typeof RunSchema>;

export const RoutineSchema = z.object({
  id: z.string(),
  name: z.string(),
  schedule: z.string(),
  prompt: z.string(),
  timezone: z.string(),
  sessionId: z.string(),
  createdAt: z.string(),
  createdBy: z.string(),
  status: z.enum(['active', 'done', 'cancelled', 'disabled']),
  nextRunAt: z.string().optional(),
  lastRunAt: z.string().optional(),
  note: z.string().optional(),
  /** The last runs, newest last (a few kept). */
  runs: z.array(RunSchema),
});
export type Routine = z.infer<typeof RoutineSchema>;

const FileSchema = z.object({ routines: z.array(RoutineSchema) });
const KEPT_RUNS = 20;

/**
 * `<dataDir>/routines.json`: every change is written whole with an atomic replace before it
 * takes effect, so a crash leaves the old or the new file, never half of one.
 */
export class RoutineStore {
  private routines: Routine[] = [];
  private writing: Promise<void> = Promise.resolve();
  readonly path: string;

  constructor(dataDir: string) {
    this.path = join(dataDir, 'routines.json');
  }

  async load(): Promise<string[]> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw err;
    }
    const parsed = FileSchema.safeParse(safeJson(text));
    if (!parsed.success) return [`${this.path} is not a valid routines file; no routines were loaded (fix or remove it)`];
    this.routines = parsed.data.routines;
    return [];
  }

  all(): readonly Routine[] {
    return this.routines;
  }

  get(id: string): Routine | undefined {
    return this.routines.find((r) => r.id === id);
  }

  /** Applies `change` to a copy, writes it, and only then makes it current. */
  async update(change: (routines: Routine[]) => void): Promise<void> {
    const run = this.writing.then(async () => {
      const next = structuredClone(this.routines);
      change(next);
      for (const r of next) if (r.runs.length > KEPT_RUNS) r.runs.splice(0, r.runs.length - KEPT_RUNS);
      await writeFileAtomic(this.path, `${JSON.stringify({ routines: next }, null, 2)}\n`);
      this.routines = next;
    });
    this.writing = run.catch(() => undefined);
    return run;
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
