import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { writeFileAtomicSync } from '../base/atomic-write-sync.js';
import type { EvolutionSignal } from './signals.js';

/** One change a reflection made to an agent's library. */
export interface EvolutionChange {
  kind: 'skill_created' | 'skill_patched' | 'profile_updated';
  /** The skill's name, or `profile`. */
  name: string;
}

/** One reflection, as `tandem agents evolution NAME` lists it. */
export interface EvolutionRecord {
  id: string;
  agent: string;
  at: string;
  trigger: 'scheduled' | 'run_now';
  /** `applied` (something changed), `no_change`, `failed` (no model could reflect; nothing changed). */
  status: 'applied' | 'no_change' | 'failed';
  score: number;
  signals: number;
  model?: string;
  tokens: number;
  summary: string;
  changes: EvolutionChange[];
  /** What was left out (a skill over the count cap, one the injection scanner refused), or why it failed. */
  notes: string[];
  revertedAt?: string;
  revertedBy?: string;
}

/** The state between reflections: which signals a reflection already read. */
export interface EvolutionState {
  /** Signals recorded at or before this time were read by a reflection. */
  consumedUntil?: string;
  lastReflectionAt?: string;
}

/**
 * An agent's evolution files under `<data-dir>/agents/NAME/evolution/`: `signals.jsonl` (what
 * its turns recorded), `reflections.jsonl` (one record per reflection) and `state.json`.
 * Small, append-mostly files; a damaged line is skipped.
 */
export class EvolutionLog {
  private readonly signalsFile: string;
  private readonly recordsFile: string;
  private readonly stateFile: string;

  constructor(readonly dir: string) {
    this.signalsFile = path.join(dir, 'signals.jsonl');
    this.recordsFile = path.join(dir, 'reflections.jsonl');
    this.stateFile = path.join(dir, 'state.json');
  }

  addSignal(signal: EvolutionSignal): void {
    mkdirSync(this.dir, { recursive: true });
    appendFileSync(this.signalsFile, `${JSON.stringify(signal)}\n`, { mode: 0o600 });
  }

  /** Signals no reflection has read yet. */
  pendingSignals(): EvolutionSignal[] {
    const until = this.state().consumedUntil;
    return readLines<EvolutionSignal>(this.signalsFile).filter((s) => until === undefined || s.at > until);
  }

  state(): EvolutionState {
    try {
      return JSON.parse(readFileSync(this.stateFile, 'utf8')) as EvolutionState;
    } catch {
      return {};
    }
  }

  setState(state: EvolutionState): void {
    mkdirSync(this.dir, { recursive: true });
    writeFileAtomicSync(this.stateFile, `${JSON.stringify(state, null, 2)}\n`);
  }

  records(): EvolutionRecord[] {
    return readLines<EvolutionRecord>(this.recordsFile);
  }

  addRecord(record: EvolutionRecord): void {
    mkdirSync(this.dir, { recursive: true });
    appendFileSync(this.recordsFile, `${JSON.stringify(record)}\n`, { mode: 0o600 });
  }

  /** Rewrites one record (marking it reverted). */
  updateRecord(id: string, change: (record: EvolutionRecord) => EvolutionRecord): EvolutionRecord | undefined {
    const records = this.records();
    const at = records.findIndex((r) => r.id === id);
    if (at === -1) return undefined;
    records[at] = change(records[at] as EvolutionRecord);
    writeFileAtomicSync(this.recordsFile, records.map((r) => `${JSON.stringify(r)}\n`).join(''));
    return records[at];
  }

  exists(): boolean {
    return existsSync(this.dir);
  }
}

function readLines<T>(file: string): T[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  const out: T[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      out.push(JSON.parse(line) as T);
    } catch {
      // a torn last line after a crash: skipped
    }
  }
  return out;
}
