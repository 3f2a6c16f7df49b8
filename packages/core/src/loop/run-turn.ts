import { withholdSecrets } from './withhold-secrets.js';
import { startAfterCompaction } from '../context/run-compaction.js';
import type { ToolCall } from '@tandem/ai';
import { systemClock } from '@tandem/ai';
import { allowAllGate } from '../ports/tool-gate.js';
import { DEFAULT_TEMPERATURE } from '@tandem/ai';
import { sameItems } from '../base/same-items.js';
import { emptyUsage, sumUsage } from '@tandem/ai';
import type { ModelRequest, ModelUsage, ToolSpec } from '@tandem/ai';
import { toToolSpec, type AnyTool } from '../tools/define.js';
import { isOffered } from '../tools/tool-setup.js';
import { errorMessage } from './argument-errors.js';
import { overflowGuarded, runContextStep, type ContextStepIo } from './context-step.js';
import type { CallEnvironment } from './execute-call.js';
import { NestedInstructions } from '../prompt/nested-instructions.js';
import { LoopDetector } from './loop-detector.js';
import { readModelReply } from './model-reply.js';
import { runToolCalls } from './run-tool-calls.js';
import { CANCEL_NOTE, type TurnEnd } from './turn-end.js';
import { turnEvents, type TurnIo } from './turn-events.js';
import { turnSystemPrompt } from './turn-system.js';
import { DEFAULT_LIMITS, type EngineEvent, type TurnEnvironment, type TurnOptions } from './types.js';

/**
 * One turn of the agent loop (requirements A1-A10). It never prints: everything that happens is a
 * yielded event, ending with exactly one `turn_done` or `turn_cancelled`. The conversation in
 * `opts.conversation` is appended to as the turn goes and rolled back if it is cancelled.
 * Stopping the iteration early (`return()`) cancels the turn.
 */
export function runTurn(opts: TurnOptions): AsyncGenerator<EngineEvent> {
  return turnEvents(opts, (signal, io) => driveTurn(opts, signal, io));
}

async function driveTurn(opts: TurnOptions, signal: AbortSignal, io: TurnIo): Promise<void> {
  const { emit } = io;
  const usage: TurnUsage = { total: emptyUsage() };
  // `start` is where a cancel truncates back to; a compaction during the turn moves it.
  const state: TurnState = { iterations: 0, start: opts.conversation.length };
  opts.conversation.push({ role: 'user', text: opts.user.text });
  emit({ type: 'turn_started', turnId: opts.turnId, model: opts.model.id });

  let end: TurnEnd;
  try {
    end = await loop(opts, signal, io, usage, state);
  } catch (err) {
    end = signal.aborted
      ? { kind: 'cancelled' }
      : { kind: 'error', outcome: 'error', code: 'internal', message: `The agent loop failed unexpectedly: ${errorMessage(err)}` };
  }

  emit({ type: 'usage', turnId: opts.turnId, model: opts.model.lastModel ?? opts.model.id, ...usage.total });
  if (end.kind === 'cancelled') {
    opts.conversation.length = Math.min(state.start, opts.conversation.length);
    emit({ type: 'turn_cancelled', turnId: opts.turnId, note: CANCEL_NOTE });
    return;
  }
  if (end.kind === 'error') emit({ type: 'agent_error', turnId: opts.turnId, code: end.code, message: end.message });
  emit({
    type: 'turn_done',
    turnId: opts.turnId,
    iterations: state.iterations,
    outcome: end.kind === 'answered' ? 'answered' : end.outcome,
    model: opts.model.lastModel ?? opts.model.id,
    usage: { ...usage.total },
  });
}

async function loop(opts: TurnOptions, signal: AbortSignal, io: TurnIo, usage: TurnUsage, state: TurnState): Promise<TurnEnd> {
  const { emit } = io;
  const { environment } = opts;
  const limits = { ...DEFAULT_LIMITS, ...environment.limits };
  const tools = toolMap(environment.tools);
  let specs = offeredSpecs(environment.tools, environment);
  let dynamic: DynamicRequest | undefined;
  const detector = new LoopDetector();
  // Secret arguments (configure_provider's key) live here between the reply and the tool run.
  const vault = new Map<string, Record<string, unknown>>();
  const env = { ...callEnvironment(opts, tools, signal, limits.toolTimeoutMs, emit), withheld: vault };
  const system = await turnSystemPrompt(opts, signal);
  const contextIo: ContextStepIo = { emit, onCompaction: (folded) => (state.start = startAfterCompaction(state.start, folded)) };
  const model = environment.context ? overflowGuarded(opts.model, environment.context, signal, contextIo) : opts.model;

  // Steering is taken only once the consumer has handled every event so far, so a message the
  // host accepted in reaction to an event is folded in at this boundary, not the next one.
  const foldSteering = async (): Promise<boolean> => {
    const { takeSteering } = opts.control;
    if (!takeSteering) return false;
    await io.settled();
    const steering = takeSteering();
    for (const s of steering) {
      emit({ type: 'user_message', text: s.text, by: s.by, mode: 'steer' });
      opts.conversation.push({ role: 'user', text: s.text });
    }
    return steering.length > 0;
  };

  for (;;) {
    if (signal.aborted) return { kind: 'cancelled' };
    if (state.iterations >= limits.maxIterations) {
      const message = `max_iterations (${limits.maxIterations}) exceeded`;
      return { kind: 'error', outcome: 'max_iterations', code: 'max_iterations', message };
    }
    await foldSteering();
    if (signal.aborted) return { kind: 'cancelled' };
    state.iterations += 1;
    const iteration = state.iterations;
    emit({ type: 'thinking', turnId: opts.turnId });
    let requestSystem = system;
    if (environment.dynamicTools) {
      dynamic = refreshDynamicTools(environment, tools, system, dynamic);
      specs = dynamic.specs;
      requestSystem = dynamic.system;
    }
    const request: ModelRequest = {
      system: requestSystem,
      messages: opts.conversation,
      tools: specs,
      temperature: environment.temperature ?? DEFAULT_TEMPERATURE,
      // The session's conversation goes on: its prefix is worth caching (cache_control, prompt_cache_key).
      cacheKey: environment.sessionId,
    };
    if (environment.context) {
      await runContextStep(environment.context, request, signal, contextIo);
      if (signal.aborted) return { kind: 'cancelled' };
    }
    const reply = await readModelReply(model, request, signal, (delta) => emit({ type: 'text_delta', turnId: opts.turnId, delta }));
    usage.total = sumUsage(usage.total, reply.usage);
    if (signal.aborted) return { kind: 'cancelled' };
    if (environment.context && !reply.error) environment.context.afterReply({ inputTokens: reply.inputTokens, model: model.lastModel ?? model.id });

    if (reply.error) {
      const kept = reply.text !== '';
      if (kept) {
        emit({ type: 'assistant_text', turnId: opts.turnId, iteration, text: reply.text });
        opts.conversation.push({ role: 'assistant', text: reply.text, toolCalls: [] });
      }
      const message = kept ? `${reply.error.message} The partial reply was kept.` : reply.error.message;
      return { kind: 'error', outcome: 'error', code: reply.error.kind, message };
    }

    const calls = reply.toolCalls.map((call) => normalizeCall(withholdSecrets(call, env.tools, vault)));
    if (reply.text !== '') emit({ type: 'assistant_text', turnId: opts.turnId, iteration, text: reply.text });
    if (reply.text !== '' || calls.length > 0) opts.conversation.push({ role: 'assistant', text: reply.text, toolCalls: calls });
    if (calls.length === 0) {
      if (await foldSteering()) continue;
      return { kind: 'answered' };
    }
    const stop = await runToolCalls(calls, {
      turnId: opts.turnId,
      iteration,
      env,
      detector,
      conversation: opts.conversation,
      emit,
      settled: io.settled,
      usage: reply.usage,
    });
    if (stop) return stop;
  }
}

/** The turn's usage so far: every request's tokens, cache parts and price (the price unknown once one request had none). */
interface TurnUsage {
  total: ModelUsage;
}

interface TurnState {
  iterations: number;
  /** The conversation length to roll back to on cancel. */
  start: number;
}

/** The conversation keeps arguments as canonical JSON, which the event log can reproduce exactly. */
function normalizeCall(call: ToolCall): ToolCall {
  return call.args === undefined ? call : { ...call, rawArgs: JSON.stringify(call.args) };
}

function toolMap(tools: readonly AnyTool[]): Map<string, AnyTool> {
  return new Map(tools.map((t) => [t.name, t]));
}

/**
 * Provider specs are derived once per tool object, not once per request or turn: turning a zod
 * schema into JSON Schema took ~3 ms per turn for the built-in tools (8 ms in a fresh process),
 * before the turn's first request. A spec is never changed once made, so turns share it.
 */
const specCache = new WeakMap<AnyTool, ToolSpec>();

function specOf(tool: AnyTool): ToolSpec {
  let spec = specCache.get(tool);
  if (!spec) {
    spec = toToolSpec(tool);
    specCache.set(tool, spec);
  }
  return spec;
}

/** The specs of the tools offered to the model: a tool that waits for setting up is left out (it still answers a call). */
function offeredSpecs(tools: Iterable<AnyTool>, environment: TurnEnvironment): ToolSpec[] {
  const services = environment.services ?? {};
  const specs: ToolSpec[] = [];
  for (const tool of tools) if (isOffered(tool, services)) specs.push(specOf(tool));
  return specs;
}

/** What the dynamic tools made of one request: the tools it offers and its system prompt. */
interface DynamicRequest {
  tools: readonly AnyTool[];
  notices: readonly string[];
  specs: ToolSpec[];
  system: string;
}

/**
 * The tools and system prompt for the next request with the dynamic tools as they are now. While
 * they are the ones of the last request (the usual case: asked before every step), that request's
 * are used again; otherwise the turn's tool map is rebuilt in place (the fixed tools, then the
 * dynamic ones that do not clash).
 */
function refreshDynamicTools(environment: TurnEnvironment, tools: Map<string, AnyTool>, system: string, last: DynamicRequest | undefined): DynamicRequest {
  const extra = environment.dynamicTools?.() ?? { tools: [], notices: [] };
  if (last && sameItems(extra.tools, last.tools) && sameItems(extra.notices, last.notices)) return last;
  tools.clear();
  for (const t of environment.tools) tools.set(t.name, t);
  // By name, so the request's tool list (and the prompt prefix it starts) does not depend on
  // which server answered first or listed its tools in what order.
  for (const t of [...extra.tools].sort(byName)) if (!tools.has(t.name)) tools.set(t.name, t);
  return {
    tools: extra.tools,
    notices: extra.notices,
    specs: offeredSpecs(tools.values(), environment),
    system: extra.notices.length > 0 ? `${system}\n\n${extra.notices.join('\n')}` : system,
  };
}

function byName(a: AnyTool, b: AnyTool): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

function callEnvironment(
  opts: TurnOptions,
  tools: ReadonlyMap<string, AnyTool>,
  signal: AbortSignal,
  toolTimeoutMs: number,
  emit: (e: EngineEvent) => void,
): CallEnvironment {
  const { environment } = opts;
  return {
    turnId: opts.turnId,
    tools,
    gate: environment.gate ?? allowAllGate,
    clock: environment.clock ?? systemClock,
    toolTimeoutMs,
    signal,
    paths: environment.paths,
    instructions: new NestedInstructions(environment.cwd),
    context: (call, callSignal) => ({
      sessionId: environment.sessionId,
      callId: call.id,
      cwd: environment.cwd,
      signal: callSignal,
      onOutput: (data: string) => emit({ type: 'command_output', callId: call.id, data }),
      runner: environment.runner,
      paths: environment.paths,
      baselines: environment.baselines,
      services: environment.services ?? {},
    }),
  };
}
