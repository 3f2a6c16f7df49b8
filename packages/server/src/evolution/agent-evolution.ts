import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { checkCommandBlacklist } from '@tandem/coding-tools';
import type { Logger } from 'pino';
import type { EventBody } from '@tandem/shared';
import {
  AgentLibrary,
  agentRoots,
  applyReflection,
  DEFAULT_REFLECTION_THRESHOLD,
  discoverAgents,
  EvolutionLog,
  reflect,
  revertReflection,
  scoreOf,
  type AgentDefinition,
  type EvolutionRecord,
  type EvolutionSignal,
} from '@tandem/core';
import { startTimer, type Clock, type ModelClient } from '@tandem/ai';
import { ConflictError, InvalidInputError, NotFoundError } from '../errors/domain-errors.js';

/** config.json `agents.reflection`, with its defaults. */
export interface ReflectionSettings {
  intervalSeconds?: number | undefined;
  threshold?: number | undefined;
  maxSkillsPerRun?: number | undefined;
  maxTokensPerRun?: number | undefined;
  maxOutputTokens?: number | undefined;
}

export const DEFAULT_INTERVAL_SECONDS = 12 * 3600;
const DEFAULT_MAX_SKILLS = 3;
const DEFAULT_MAX_TOKENS = 24_000;
const DEFAULT_MAX_OUTPUT_TOKENS = 2_048;
/** Signals that never reach the threshold still get a reflection after this long. */
const FALLBACK_MS = 7 * 86_400_000;

export interface AgentEvolutionOptions {
  dataDir: string;
  clock: Clock;
  logger: Logger;
  settings?: ReflectionSettings | undefined;
  /** The memory model chain, resolved at each reflection (keys and config.json may change). */
  chain(): Array<{ id: string; client: ModelClient }>;
  /** Emits into a loaded session (the `evolution` event); nothing when it is not loaded. */
  emitTo(sessionId: string, body: EventBody): void;
}

/**
 * Self-evolution for agents whose definition says `evolve: true` (ARCHITECTURE "…self-evolution"):
 * signals are kept per agent, and a reflection — on a timer (`agents.reflection.intervalSeconds`,
 * default 12 h) once the weighted score reaches the threshold, or at once on request — asks the
 * memory model chain what to learn, creates or patches skills of the agent's private library and
 * updates its profile, within caps (skills and tokens per run). Each reflection is an `evolution`
 * event in the sessions its signals came from and a record `tandem agents evolution NAME` lists;
 * each change can be reverted. A reflection that fails is recorded and blocks no other agent.
 */
export class AgentEvolution {
  private readonly running = new Map<string, Promise<EvolutionRecord>>();
  private stopTimer: (() => void) | undefined;
  private ticking: Promise<void> | undefined;
  private stopped = false;

  constructor(private readonly options: AgentEvolutionOptions) {}

  private get intervalMs(): number {
    return (this.options.settings?.intervalSeconds ?? DEFAULT_INTERVAL_SECONDS) * 1000;
  }

  library(agent: string): AgentLibrary {
    return new AgentLibrary(this.options.dataDir, agent);
  }

  logOf(agent: string): EvolutionLog {
    return new EvolutionLog(this.library(agent).evolutionDir);
  }

  addSignal(agent: string, signal: EvolutionSignal): void {
    try {
      this.logOf(agent).addSignal(signal);
    } catch (err) {
      this.options.logger.warn({ err, agent }, 'could not record a self-evolution signal');
    }
  }

  list(agent: string): EvolutionRecord[] {
    return this.logOf(agent).records();
  }

  /** Starts the periodic check; each tick reflects every agent that is due. */
  start(): void {
    this.stopped = false;
    this.arm();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.stopTimer?.();
    await this.ticking;
    await Promise.allSettled(this.running.values());
  }

  private arm(): void {
    if (this.stopped) return;
    this.stopTimer = startTimer(this.options.clock, this.intervalMs, () => {
      this.ticking = this.tick().finally(() => {
        this.ticking = undefined;
        this.arm();
      });
    });
  }

  /** One periodic check: every agent with pending signals whose score passed the threshold (or that waited past the fallback). */
  async tick(): Promise<void> {
    const now = this.options.clock.now();
    const threshold = this.options.settings?.threshold ?? DEFAULT_REFLECTION_THRESHOLD;
    const due = this.agentsWithSignals().filter((agent) => {
      const log = this.logOf(agent);
      const pending = log.pendingSignals();
      if (pending.length === 0) return false;
      const last = log.state().lastReflectionAt;
      if (last !== undefined && now - Date.parse(last) < this.intervalMs) return false;
      const oldest = Date.parse(pending[0]?.at ?? new Date(now).toISOString());
      return scoreOf(pending) >= threshold || now - oldest >= FALLBACK_MS;
    });
    // One agent's failure never blocks another: each runs on its own and is recorded on its own.
    await Promise.allSettled(due.map((agent) => this.reflect(agent, { trigger: 'scheduled' })));
  }

  /**
   * Runs a reflection for `agent` now (`tandem agents evolution NAME --run-now`, or the timer).
   * The agent's definition must say `evolve: true` (found in `workspace`, else where its signals
   * came from, else the user's agents); otherwise nothing changes and the refusal says why.
   */
  reflect(
    agent: string,
    request: { trigger: 'scheduled' | 'run_now'; workspace?: string | undefined; sessionId?: string | undefined },
  ): Promise<EvolutionRecord> {
    const busy = this.running.get(agent);
    if (busy) {
      if (request.trigger === 'run_now')
        throw new ConflictError(`a reflection of ${agent} is running; wait for it (tandem agents evolution ${agent} lists it when done)`);
      return busy;
    }
    const run = this.reflectNow(agent, request).finally(() => this.running.delete(agent));
    this.running.set(agent, run);
    return run;
  }

  private async reflectNow(
    agent: string,
    request: { trigger: 'scheduled' | 'run_now'; workspace?: string | undefined; sessionId?: string | undefined },
  ): Promise<EvolutionRecord> {
    const log = this.logOf(agent);
    const pending = log.pendingSignals();
    const definition = this.definitionOf(agent, request.workspace, pending);
    if (!definition) throw new NotFoundError(`no agent named "${agent}" here (tandem agents lists them)`);
    if (!definition.evolve) throw new InvalidInputError(`agent ${agent} does not say evolve: true in ${definition.file}; self-evolution is off for it`);
    if (definition.command) throw new InvalidInputError(`agent ${agent} is an external agent (command:); self-evolution is for model agents`);
    const settings = this.options.settings ?? {};
    const library = this.library(agent);
    const now = this.options.clock.now();
    const at = new Date(now).toISOString();
    const id = `r-${at.slice(0, 10).replace(/-/g, '')}-${randomBytes(3).toString('hex')}`;
    const base = { id, agent, at, trigger: request.trigger, score: scoreOf(pending), signals: pending.length };
    let record: EvolutionRecord;
    try {
      const result = await reflect({
        agent: { name: agent, description: definition.description, prompt: definition.prompt },
        profile: library.profile(),
        skills: library.skills({ checkCommand: checkCommandBlacklist }).map((s) => ({ name: s.name, description: s.description, body: s.body })),
        signals: pending,
        chain: this.options.chain(),
        clock: this.options.clock,
        maxTokens: settings.maxTokensPerRun ?? DEFAULT_MAX_TOKENS,
        maxOutputTokens: settings.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS,
      });
      if (!result.ok) {
        record = { ...base, status: 'failed', tokens: result.tokens, summary: '', changes: [], notes: [result.reason] };
      } else {
        const applied = applyReflection(library, result.decision, { id, maxSkills: settings.maxSkillsPerRun ?? DEFAULT_MAX_SKILLS });
        record = {
          ...base,
          status: applied.changes.length > 0 ? 'applied' : 'no_change',
          model: result.model,
          tokens: result.tokens,
          summary: result.decision.summary,
          changes: applied.changes,
          notes: applied.notes,
        };
      }
    } catch (err) {
      record = { ...base, status: 'failed', tokens: 0, summary: '', changes: [], notes: [`the reflection failed: ${(err as Error).message}`] };
    }
    log.addRecord(record);
    // A failed reflection leaves the signals for the next one; either way it waits a full interval.
    log.setState({ ...log.state(), lastReflectionAt: at, ...(record.status !== 'failed' && pending.length > 0 ? { consumedUntil: pending.at(-1)?.at } : {}) });
    this.options.logger.info(
      { agent, id, status: record.status, changes: record.changes.length },
      `self-evolution: reflection ${id} of ${agent} ${record.status}`,
    );
    this.announce(record, [...pending.map((s) => s.sessionId), ...(request.sessionId ? [request.sessionId] : [])], request.trigger);
    return record;
  }

  /** Puts back what reflection `id` changed (refused when a file changed since). */
  revert(agent: string, id: string, by: string, sessionId?: string): EvolutionRecord {
    const log = this.logOf(agent);
    const record = log.records().find((r) => r.id === id);
    if (!record) throw new NotFoundError(`agent ${agent} has no reflection ${id} (tandem agents evolution ${agent} lists them)`);
    if (record.revertedAt) throw new ConflictError(`reflection ${id} was already reverted at ${record.revertedAt} by ${record.revertedBy ?? 'someone'}`);
    if (record.changes.length === 0) throw new ConflictError(`reflection ${id} changed nothing; there is nothing to revert`);
    const outcome = revertReflection(this.library(agent), id);
    if (!outcome.ok) {
      if ('missing' in outcome) throw new ConflictError(`reflection ${id} kept no backup; nothing can be put back`);
      const later = log.records().filter((r) => r.at > record.at && !r.revertedAt && r.changes.length > 0);
      throw new ConflictError(
        `reflection ${id} cannot be reverted: ${outcome.changedSince.map((f) => path.relative(this.library(agent).dir, f)).join(', ')} changed since${later.length > 0 ? ` (revert ${later.map((r) => r.id).join(', ')} first)` : ''}`,
      );
    }
    const reverted = log.updateRecord(id, (r) => ({ ...r, revertedAt: new Date(this.options.clock.now()).toISOString(), revertedBy: by })) ?? record;
    this.announce({ ...reverted }, [...(sessionId ? [sessionId] : [])], 'revert');
    return reverted;
  }

  private announce(record: EvolutionRecord, sessionIds: readonly string[], trigger: 'scheduled' | 'run_now' | 'revert'): void {
    const body: EventBody = {
      type: 'evolution',
      agent: record.agent,
      id: record.id,
      status: trigger === 'revert' ? 'reverted' : record.status,
      trigger,
      summary: record.summary,
      changes: record.changes,
      ...(record.model ? { model: record.model } : {}),
      ...(record.status === 'failed' ? { reason: record.notes.join('; ') } : {}),
    };
    for (const sessionId of new Set(sessionIds)) {
      try {
        this.options.emitTo(sessionId, body);
      } catch (err) {
        this.options.logger.warn({ err, sessionId }, 'could not tell a session about a reflection');
      }
    }
  }

  private definitionOf(agent: string, workspace: string | undefined, pending: readonly EvolutionSignal[]): AgentDefinition | undefined {
    const places = [workspace, ...[...pending].reverse().map((s) => s.workspace), this.options.dataDir].filter((w): w is string => w !== undefined);
    for (const place of new Set(places)) {
      const found = discoverAgents(agentRoots({ workspace: place, dataDir: this.options.dataDir })).agents.find((a) => a.name === agent);
      if (found) return found;
    }
    return undefined;
  }

  private agentsWithSignals(): string[] {
    try {
      return readdirSync(path.join(this.options.dataDir, 'agents'), { withFileTypes: true })
        .filter((d) => d.isDirectory())
        .map((d) => d.name)
        .filter((name) => this.logOf(name).pendingSignals().length > 0);
    } catch {
      return [];
    }
  }
}
