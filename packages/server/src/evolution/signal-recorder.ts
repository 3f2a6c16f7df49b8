import type { SessionEvent } from '@tandem/shared';
import { COMPLEX_TASK_ITERATIONS, isCorrection, SIGNAL_WEIGHTS, type AgentDefinition, type EvolutionSignal, type SignalKind } from '@tandem/core';

/** What the recorder needs of a session. */
export interface ObservedSession {
  readonly id: string;
  readonly meta: { cwd: string };
  /** The usable agent definitions now. */
  readonly agents: { definitions(): readonly AgentDefinition[] };
}

interface OpenTurn {
  agent: string;
  task: string;
  errors: string[];
  skillsRead: Set<string>;
}

interface SessionState {
  turns: Map<string, OpenTurn>;
  /** Each evolving agent's last task (user message or dispatched task) and last answer to a person. */
  lastTask: Map<string, string>;
  lastAnswer: Map<string, string>;
}

/**
 * Records the signals of evolving agents' turns (ARCHITECTURE "…self-evolution"): a person
 * correcting the agent's answer (weighs most), a turn that ended answered after a non-trivial tool
 * error (recovery), a long turn (complexity), a failed turn after reading one of its own skills
 * (the skill did not help). Only agents whose definition says `evolve: true` (model agents, not
 * external ones) are watched; the commander never is. Holds only open turns per session.
 */
export class SignalRecorder {
  private readonly sessions = new WeakMap<ObservedSession, SessionState>();

  constructor(
    private readonly record: (agent: string, signal: EvolutionSignal) => void,
    private readonly privateSkills: (agent: string) => ReadonlySet<string>,
    private readonly now: () => number,
  ) {}

  observe(session: ObservedSession, event: SessionEvent): void {
    const agent = event.agent;
    if (!agent || agent === 'commander') return;
    const definition = session.agents.definitions().find((d) => d.name === agent);
    if (!definition?.evolve || definition.command) return;
    const state = this.stateOf(session);
    switch (event.type) {
      case 'user_message': {
        const answer = state.lastAnswer.get(agent);
        if (answer !== undefined && isCorrection(event.text)) {
          this.signal(
            session,
            agent,
            'user_correction',
            `The person corrected its answer. They said: "${clip(event.text, 400)}". Its answer had been: "${clip(answer, 400)}". Task: ${clip(state.lastTask.get(agent) ?? '', 200)}`,
          );
        }
        if (event.mode === 'turn') state.lastTask.set(agent, event.text);
        return;
      }
      case 'agent_started':
        state.lastTask.set(agent, event.task);
        return;
      case 'turn_started':
        state.turns.set(event.turnId, { agent, task: state.lastTask.get(agent) ?? '', errors: [], skillsRead: new Set() });
        return;
      case 'tool_call': {
        const turn = state.turns.get(event.turnId);
        const name = (event.args as { name?: unknown } | undefined)?.name;
        if (turn && event.tool === 'read_skill' && typeof name === 'string' && this.privateSkills(agent).has(name)) turn.skillsRead.add(name);
        return;
      }
      case 'tool_result': {
        const turn = state.turns.get(event.turnId);
        // Non-trivial: the tool ran and failed (not a refusal, a denial or a cancel).
        if (turn && event.isError && (event.outcome === undefined || event.outcome === 'error')) turn.errors.push(`${event.tool}: ${clip(event.output, 240)}`);
        return;
      }
      case 'assistant_text':
        if (event.taskId === undefined) state.lastAnswer.set(agent, event.text);
        return;
      case 'turn_done': {
        const turn = state.turns.get(event.turnId);
        state.turns.delete(event.turnId);
        if (!turn) return;
        const answered = event.outcome === undefined || event.outcome === 'answered';
        const task = `Task: ${clip(turn.task, 300)}`;
        if (answered && turn.errors.length > 0) {
          this.signal(
            session,
            agent,
            'error_recovery',
            `${task}\nIt recovered from ${turn.errors.length} error(s), e.g. ${turn.errors.slice(0, 2).join(' / ')}`,
          );
        }
        if (event.iterations >= COMPLEX_TASK_ITERATIONS) {
          this.signal(
            session,
            agent,
            'complex_task',
            `${task}\nIt took ${event.iterations} iterations (${answered ? 'answered' : (event.outcome ?? 'stopped')}).`,
          );
        }
        if (!answered && turn.skillsRead.size > 0) {
          this.signal(
            session,
            agent,
            'skill_ineffective',
            `${task}\nIt read its skill(s) ${[...turn.skillsRead].join(', ')} and still ended with ${event.outcome}.`,
          );
        }
        return;
      }
      case 'turn_cancelled':
      case 'turn_interrupted':
        state.turns.delete(event.turnId);
        return;
      default:
        return;
    }
  }

  private signal(session: ObservedSession, agent: string, kind: SignalKind, detail: string): void {
    this.record(agent, {
      at: new Date(this.now()).toISOString(),
      kind,
      weight: SIGNAL_WEIGHTS[kind],
      sessionId: session.id,
      workspace: session.meta.cwd,
      detail,
    });
  }

  private stateOf(session: ObservedSession): SessionState {
    let state = this.sessions.get(session);
    if (!state) {
      state = { turns: new Map(), lastTask: new Map(), lastAnswer: new Map() };
      this.sessions.set(session, state);
    }
    return state;
  }
}

function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
