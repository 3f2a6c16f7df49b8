import type { SessionEvent } from '@tandem/shared';
import type { EventSubscribers } from './event-pipeline.js';
import type { SessionBase } from './session-base.js';
import type { HostEnvironment } from './session-environment.js';
import type { SessionStateFold } from './session-state-fold.js';
import type { Session, SessionHooks } from './session.js';
import type { SnapshotWriter } from './snapshot-writer.js';

/** Everything a session's events are told to, built by the time its first event is emitted. */
export interface SessionSubscriberParts {
  base: SessionBase;
  host: HostEnvironment;
  session: Session;
  /** The audit and other hooks of the application (app.ts composes them). */
  hooks: SessionHooks;
  /** Sends an event to every socket attached to the session. */
  broadcast(sessionId: string, event: SessionEvent): void;
  /** The folded state kept for the snapshot (usage totals) and the snapshot beside the log. */
  state: SessionStateFold;
  snapshots: SnapshotWriter;
}

/**
 * The one list of a session's event subscribers, in the order each is told. `stamped` ones run
 * inside `emit`, in the log's order: the folds come first, since what follows reads them (the
 * next turn starts from the conversation; a turn's end frees the session last, after the calls
 * in flight and the checkpoint steps saw it). `visible` ones run once the line is written:
 * durable before visible, the audit before the sockets, the snapshot's fold last.
 */
export function sessionSubscribers({ base, host, session, hooks, broadcast, state, snapshots }: SessionSubscriberParts): EventSubscribers {
  const { checkpoints } = host;
  return {
    stamped: [
      // Each agent's conversation and the floor, as the log describes them.
      (event) => base.conversation.apply(event),
      // Tool calls in flight (typed input waits on them) and open permission questions.
      base.calls.observe,
      // The session's own turn running now, for the host's parts (the network decider names it).
      base.observeOpenTurn,
      // A turn's checkpoint steps: its start opens a bracket, its end closes it.
      ...(checkpoints ? [(event: SessionEvent) => checkpoints.observe(event)] : []),
      // The turn's owner: idle again at its terminal event, and the next turn (late steering, hand-off) starts.
      session.turns.observe,
      (event) => {
        // A key added to config.json (or the secret store) after an auth failure counts from the next turn.
        if (event.type === 'agent_error' && event.code === 'auth') session.dropModelClient();
        // A fresh conversation (`/new`, `/clear`) starts from a fresh prompt: AGENTS.md, the date and memory read again.
        if (event.type === 'conversation_cleared') session.reloadPrompt();
      },
    ],
    visible: [
      // The text streamed so far in each current reply, for a client that attaches mid-reply.
      (event) => session.partial.observe(event),
      // The audit and other hooks, then every attached socket.
      (event) => {
        if (event.ephemeral) return;
        hooks.onEvent?.(session, event);
        if (event.type === 'tool_result') hooks.onToolResult?.(session, event);
      },
      (event) => broadcast(session.id, event),
      // The state kept for the snapshot, and the snapshot itself.
      (event) => {
        if (event.ephemeral) return;
        state.observe(event);
        snapshots.observe(event);
      },
    ],
  };
}
