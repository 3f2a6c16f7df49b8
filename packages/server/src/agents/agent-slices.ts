import type { SessionEvent } from '@tandem/shared';
import { COMMANDER, type EngineEvent } from '@tandem/core';
import type { Message } from '@tandem/ai';
import type { ConversationFold } from '../sessions/engine.js';

type SliceEvent = SessionEvent | EngineEvent;

/** What `AgentSlices.snapshot` returns: the floor and each agent's conversation state. */
export interface AgentSlicesSnapshot {
  floor: string;
  slices: Array<[string, unknown]>;
}

/**
 * The session's conversations, one slice per agent that talks with the user (ARCHITECTURE.md
 * "Agents"): each event goes only to the slice of the agent that caused it (`agent`, absent
 * meaning the commander). A worker's events (those with a `taskId`) go to no slice here: a
 * worker's slice is its own run's conversation and ends with it; its answer reaches its parent
 * as a tool result. Also folds the floor (the last `floor_changed`). As a `ConversationFold` it
 * is the commander's conversation, which compaction and memory work on.
 */
export class AgentSlices implements ConversationFold {
  private readonly slices = new Map<string, ConversationFold>();
  private holder = COMMANDER;

  constructor(private readonly create: () => ConversationFold) {
    this.slices.set(COMMANDER, create());
  }

  /** Every slice's state and the floor as JSON-safe data later events do not change; undefined when a slice cannot say. */
  snapshot(): AgentSlicesSnapshot | undefined {
    const slices: Array<[string, unknown]> = [];
    for (const [agent, slice] of this.slices) {
      if (!slice.snapshot) return undefined;
      slices.push([agent, slice.snapshot()]);
    }
    return { floor: this.holder, slices };
  }

  /** Slices continuing from `snapshot()`; throws when it is malformed. */
  static restore(create: () => ConversationFold, restore: (state: unknown) => ConversationFold, value: unknown): AgentSlices {
    const state = value as Partial<AgentSlicesSnapshot> | null;
    if (typeof state?.floor !== 'string' || !Array.isArray(state.slices)) throw new Error('agent slices snapshot: malformed');
    const slices = new AgentSlices(create);
    slices.holder = state.floor;
    for (const entry of state.slices) {
      if (!Array.isArray(entry) || typeof entry[0] !== 'string') throw new Error('agent slices snapshot: malformed slice');
      slices.slices.set(entry[0], restore(entry[1]));
    }
    return slices;
  }

  apply(event: SessionEvent): void {
    this.fold(event);
  }

  /** Folds an event of the log or of a running turn (same rule as `apply`). */
  fold(event: SliceEvent): void {
    if (event.type === 'floor_changed') {
      this.holder = event.agent ?? COMMANDER;
      return;
    }
    if (event.taskId !== undefined) return;
    if (event.type === 'conversation_cleared' || event.type === 'undo') {
      for (const slice of this.slices.values()) slice.apply(event as SessionEvent);
      return;
    }
    this.slice(event.agent ?? COMMANDER).apply(event as SessionEvent);
  }

  /** The commander's conversation (a copy). */
  get messages(): Message[] {
    return this.messagesOf(COMMANDER);
  }

  /** An agent's own conversation with the user (a copy; empty for an agent that never spoke). */
  messagesOf(agent: string): Message[] {
    return this.slices.get(agent)?.messages ?? [];
  }

  /** Who answers a message that names no one. */
  get floor(): string {
    return this.holder;
  }

  private slice(agent: string): ConversationFold {
    let slice = this.slices.get(agent);
    if (!slice) {
      slice = this.create();
      this.slices.set(agent, slice);
    }
    return slice;
  }
}
