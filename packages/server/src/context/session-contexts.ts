import { resolveMemoryClient, resolveModelInfo, type Clock, type Governor, type ProvidersConfig, type TokenEstimator } from '@tandem/ai';
import { SessionContext, TokenCalibration, type EngineEvent } from '@tandem/core';

export interface SessionContextsOptions {
  env: NodeJS.ProcessEnv;
  config: ProvidersConfig;
  clock: Clock;
  governor: Governor;
  estimateTokens: TokenEstimator;
}

/** What a context needs of its session. */
export interface ContextSession {
  readonly id: string;
  readonly meta: { model: string };
  emit(body: EngineEvent): unknown;
  onClose(fn: () => Promise<void>): void;
}

/**
 * One `SessionContext` per session (requirements C1, C2): the window of the session's model (asked of a
 * local Ollama / llama.cpp server, else the catalog or config.json), the cheap memory chain as
 * the summariser, and one `TokenCalibration` shared by every session so what one learns about
 * a model's tokenizer helps the others.
 */
export class SessionContexts {
  private readonly calibration = new TokenCalibration();
  private readonly contexts = new Map<string, Promise<SessionContext>>();

  constructor(private readonly options: SessionContextsOptions) {}

  for(session: ContextSession): Promise<SessionContext> {
    let context = this.contexts.get(session.id);
    if (!context) {
      context = this.create(session);
      this.contexts.set(session.id, context);
      context.catch(() => this.contexts.delete(session.id));
      session.onClose(async () => void this.contexts.delete(session.id));
    }
    return context;
  }

  /**
   * Another agent's own context in this session (SPEC G5: each agent has its own accounting and
   * compaction): kept per agent name for agents that hold the floor, new for each worker run
   * (`agent` undefined). Dropped with the session.
   */
  forAgent(session: ContextSession, agent: string | undefined, modelSpec: string): Promise<SessionContext> {
    if (agent === undefined) return this.create(session, modelSpec);
    const key = `${session.id}\u0000${agent}`;
    let context = this.contexts.get(key);
    if (!context) {
      context = this.create(session, modelSpec);
      this.contexts.set(key, context);
      context.catch(() => this.contexts.delete(key));
      session.onClose(async () => void this.contexts.delete(key));
    }
    return context;
  }

  private async create(session: ContextSession, modelSpec = session.meta.model): Promise<SessionContext> {
    const { env, config, clock, governor, estimateTokens } = this.options;
    const model = await resolveModelInfo(modelSpec, env, config);
    const compactionClient = resolveMemoryClient({ env, config, clock, governor, estimateTokens, onEvent: (event) => void session.emit(event) });
    return new SessionContext({ model, compactionClient, calibration: this.calibration, clock });
  }
}
