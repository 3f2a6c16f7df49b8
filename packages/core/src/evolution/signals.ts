/**
 * What an evolving agent's turns record (SPEC seed 004, self-evolution): weighted signals that
 * decide whether a reflection is worth its cost. A person's correction weighs most.
 */
export type SignalKind = 'user_correction' | 'error_recovery' | 'complex_task' | 'skill_ineffective';

export const SIGNAL_WEIGHTS: Readonly<Record<SignalKind, number>> = {
  user_correction: 5,
  error_recovery: 3,
  skill_ineffective: 2,
  complex_task: 1,
};

/** One signal as `signals.jsonl` keeps it. */
export interface EvolutionSignal {
  at: string;
  kind: SignalKind;
  weight: number;
  sessionId: string;
  /** The session's workspace (where the agent's definition is found again). */
  workspace: string;
  /** What happened, in a few lines (the task, the correction, the error): what the reflection reads. */
  detail: string;
}

/** The default score at which a reflection runs. */
export const DEFAULT_REFLECTION_THRESHOLD = 5;
/** A turn of at least this many iterations counts as a complex task. */
export const COMPLEX_TASK_ITERATIONS = 10;

export function scoreOf(signals: readonly Pick<EvolutionSignal, 'weight'>[]): number {
  return signals.reduce((sum, s) => sum + s.weight, 0);
}

const CORRECTION = [
  /^\s*(no|nope|wrong|incorrect|not quite|not what i|that'?s not|that is not|that isn'?t|that was wrong|you (?:got|did) (?:it|that) wrong)\b/i,
  /^\s*(actually|instead|rather)\b[, ]/i,
  /\b(i (?:said|asked|told you|meant)|you (?:forgot|missed|ignored|broke)|(?:don'?t|do not|never|stop) (?:do|use|add|change|touch|write|run)(?:ing)?\b)/i,
  /\b(please )?(undo|revert) (that|this|it|your)\b/i,
];

/**
 * Whether a person's message reads as a correction of the agent's last answer (English
 * phrasing: "no, …", "that's not what I asked", "actually …", "don't use …", "undo that").
 * Cheap and local; the reflection itself judges what the correction teaches.
 */
export function isCorrection(text: string): boolean {
  const head = text.trim().slice(0, 300);
  return CORRECTION.some((re) => re.test(head));
}
