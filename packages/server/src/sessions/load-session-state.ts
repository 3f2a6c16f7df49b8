import type { SessionEvent } from '@tandem/shared';
import { AgentSlices } from '../agents/agent-slices.js';
import type { SessionEngine } from './engine.js';
import type { LoadedState } from './session.js';
import type { SessionLog } from './session-log.js';
import { readSnapshot } from './session-snapshot.js';
import { SessionStateFold } from './session-state-fold.js';

export interface LoadResult extends LoadedState {
  /** The permission requests never resolved, to expire questions nobody can answer now. */
  permissionEvents: Array<{ type: string; requestId?: unknown }>;
  /** A turn that started and never ended: the server stopped while it ran. */
  openTurnId: string | undefined;
  /** The last presence event listed clients: none are attached after a restart. */
  stalePresence: boolean;
  /** The metadata the first `session_info` recorded (for sessions missing from the index). */
  info: Extract<SessionEvent, { type: 'session_info' }> | undefined;
  /** The fold behind the fields above; fed with each written event after the load, for the next snapshot. */
  state: SessionStateFold;
  /** The seq the snapshot used covered (0: the whole log was read). */
  snapshotSeq: number;
  /** Protected locations granted write before. */
  writeGranted: string[];
}

/**
 * Reads a session's state: from `snapshotFile` plus the log after it when the snapshot fits the
 * log, otherwise from the whole log (a snapshot that is missing, damaged, of another version or
 * ahead of the log is ignored; `onIgnored` hears why, except when there is none).
 */
export async function loadSessionState(
  log: SessionLog,
  engine: SessionEngine,
  snapshotFile?: string,
  onIgnored: (reason: string) => void = () => undefined,
): Promise<LoadResult> {
  if (snapshotFile && engine.restoreConversation) {
    const loaded = await loadFromSnapshot(log, engine, snapshotFile);
    if (typeof loaded !== 'string') return loaded;
    if (loaded !== '') onIgnored(`${snapshotFile} ignored (${loaded}); the whole log is read`);
  }
  const conversation = new AgentSlices(() => engine.createConversation());
  const state = new SessionStateFold();
  const lastSeq = await log.load((event) => {
    state.observe(event);
    conversation.apply(event);
  });
  return result(lastSeq, conversation, state, 0);
}

/** The state from a snapshot and the log after it, or why not ('' when there is no snapshot). */
async function loadFromSnapshot(log: SessionLog, engine: SessionEngine, file: string): Promise<LoadResult | string> {
  const snapshot = await readSnapshot(file);
  if (snapshot === undefined) return '';
  if ('problem' in snapshot) return snapshot.problem;
  let conversation: AgentSlices;
  let state: SessionStateFold;
  try {
    const restore = engine.restoreConversation!.bind(engine);
    conversation = AgentSlices.restore(() => engine.createConversation(), restore, snapshot.conversation);
    state = SessionStateFold.restore(snapshot.state);
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
  const lastSeq = await log.loadFrom(snapshot.log, (event) => {
    state.observe(event);
    conversation.apply(event);
  });
  if (typeof lastSeq === 'string') return lastSeq;
  return result(lastSeq, conversation, state, snapshot.log.seq);
}

function result(lastSeq: number, conversation: AgentSlices, state: SessionStateFold, snapshotSeq: number): LoadResult {
  return {
    lastSeq,
    granted: [...state.granted],
    writeGranted: [...state.writeGranted],
    conversation,
    openTurnId: state.openTurnId,
    info: state.info,
    permissionEvents: state.permissionEvents,
    stalePresence: state.stalePresence,
    state,
    snapshotSeq,
  };
}
