import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { errorMessage } from './argument-errors.js';
import { turnEvents, type TurnIo } from './turn-events.js';
import { runHostCall } from './host-call.js';
import { CANCEL_NOTE } from './turn-end.js';
import type { EngineEvent, ExternalAgentRun, TurnEnvironment, TurnOptions } from './types.js';
import type { RunCommandResult } from '../ports/command-runner.js';
import { NONINTERACTIVE_ENV } from '../ports/noninteractive-env.js';
import { defineTool, RUNS_A_COMMAND } from '../tools/define.js';
import { commandCheckOf, commandEnvOf } from '../tools/command-services.js';
import { externalCommandLine, programOf, TASK_VARIABLE } from './external-command.js';
import { TerminalText, terminalText } from './terminal-text.js';

/** An external agent's run may take this long by default (the session's agent time limit also applies). */
export const EXTERNAL_AGENT_TIMEOUT_MS = 30 * 60_000;
/** The answer keeps at most this much of the end of the agent's output. */
const MAX_ANSWER_CHARS = 16_000;

/**
 * One turn of an external agent (an agent CLI such as Claude Code, Codex, opencode, Gemini CLI
 * or another Tandem): its command runs as a `run_command` call through the session's gate —
 * blacklist, OS sandbox, permission, rate limit, audit — in a pty in the workspace; what it
 * prints streams as the agent's text (`text_delta`), and its output is the turn's answer
 * (`assistant_text`). The task is in `TANDEM_TASK`, the bridge in `TANDEM_BRIDGE`. A non-zero
 * exit, a refusal or a denial ends the turn with an `agent_error`; cancelling the turn stops the
 * command's whole process group. Yields the events a model turn yields, ending with exactly one
 * `turn_done` or `turn_cancelled`.
 */
export function runExternalTurn(opts: TurnOptions, external: ExternalAgentRun): AsyncGenerator<EngineEvent> {
  return turnEvents(opts, (signal, io) => drive(opts, external, signal, io));
}

async function drive(opts: TurnOptions, external: ExternalAgentRun, signal: AbortSignal, { emit, settled }: TurnIo): Promise<void> {
  const { turnId, environment } = opts;
  const program = programOf(external.command);
  const model = `external/${program}`;
  const start = opts.conversation.length;
  opts.conversation.push({ role: 'user', text: opts.user.text });
  emit({ type: 'turn_started', turnId, model });

  const line = externalCommandLine(external.command);
  const timeoutMs = external.timeoutMs ?? EXTERNAL_AGENT_TIMEOUT_MS;
  let raw: RunCommandResult | undefined;
  let bridge: { env: Record<string, string>; close(): Promise<void> } | undefined;
  let failure: string | undefined;
  const text = new TerminalText();
  try {
    bridge = await external.bridge?.({ agent: external.agent, turnId, environment, signal, emit, settled });
    const tool = defineTool({
      name: 'run_command',
      description: `Runs the external agent ${external.agent}.`,
      schema: z.object({ command: z.string().min(1) }),
      danger: 'dangerous',
      readOnly: false,
      ...RUNS_A_COMMAND,
      timeoutMs: () => timeoutMs + 10_000,
      async execute(args, ctx) {
        const base = { ...NONINTERACTIVE_ENV, ...commandEnvOf(ctx.services) };
        const verdict = commandCheckOf(ctx.services)(args.command, { workspace: ctx.cwd, ...(base.HOME ? { home: base.HOME } : {}) });
        if (verdict.blocked) return { output: verdict.message, isError: true };
        raw = await ctx.runner.run({
          command: args.command,
          cwd: ctx.cwd,
          env: {
            ...base,
            ...bridge?.env,
            [TASK_VARIABLE]: external.preamble ? `${external.preamble}\n\n${opts.user.text}` : opts.user.text,
            TANDEM_AGENT: external.agent,
          },
          timeoutMs,
          signal: ctx.signal,
          callId: ctx.callId,
          sessionId: ctx.sessionId,
          onData: (chunk) => ctx.onOutput(chunk),
        });
        const exit = raw.exitCode === null ? `killed by signal ${raw.signal ?? 'unknown'}` : `exit code ${raw.exitCode}`;
        return { output: `${tail(terminalText(raw.output), 8_000)}\n[${exit}]`, isError: raw.exitCode !== 0 || raw.timedOut };
      },
    });
    const result = await runHostCall({
      turnId,
      call: { id: `external-${randomUUID()}`, name: tool.name, args: { command: line } },
      tools: [tool],
      environment,
      signal,
      emit,
      settled,
      onOutput: (chunk) => {
        const delta = text.push(chunk);
        if (delta) emit({ type: 'text_delta', turnId, delta });
      },
    });
    const rest = text.end();
    if (rest) emit({ type: 'text_delta', turnId, delta: rest });
    if (!result.cancelled && !signal.aborted) {
      if (raw?.timedOut) failure = `${external.agent} did not finish within ${Math.round(timeoutMs / 60_000)} minutes and was stopped`;
      else if (!raw) failure = `${external.agent} did not run: ${result.output}`;
      else if (raw.exitCode !== 0)
        failure = `${external.agent} (${program}) ended with ${raw.exitCode === null ? `signal ${raw.signal ?? '?'}` : `exit code ${raw.exitCode}`}: ${lastLines(terminalText(raw.output))}`;
    }
  } catch (err) {
    failure = `${external.agent} could not run: ${errorMessage(err)}`;
  } finally {
    await bridge?.close().catch(() => undefined);
  }

  emit({ type: 'usage', turnId, model, inputTokens: 0, outputTokens: 0 });
  if (signal.aborted) {
    opts.conversation.length = start;
    emit({ type: 'turn_cancelled', turnId, note: CANCEL_NOTE });
    return;
  }
  if (failure !== undefined) {
    emit({ type: 'agent_error', turnId, code: 'external_agent', message: failure });
    emit({ type: 'turn_done', turnId, iterations: 1, outcome: 'error', model, usage: { inputTokens: 0, outputTokens: 0 } });
    return;
  }
  const answer = tail(terminalText(raw?.output ?? ''), MAX_ANSWER_CHARS).trim();
  emit({ type: 'assistant_text', turnId, iteration: 1, text: answer });
  opts.conversation.push({ role: 'assistant', text: answer, toolCalls: [] });
  emit({ type: 'turn_done', turnId, iterations: 1, outcome: 'answered', model, usage: { inputTokens: 0, outputTokens: 0 } });
}

function tail(text: string, max: number): string {
  return text.length > max ? `…${text.slice(-(max - 1))}` : text;
}

function lastLines(text: string): string {
  const lines = text
    .trim()
    .split('\n')
    .filter((l) => l.trim() !== '');
  return lines.slice(-3).join(' / ').slice(0, 500) || '(no output)';
}
