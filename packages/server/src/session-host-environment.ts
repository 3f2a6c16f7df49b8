import { join } from 'node:path';
import type { Logger } from 'pino';
import { turnMemory, type ToolGate, type ToolServices, type TurnContext, type TurnOptions, type WorkspaceMemory } from '@tandem/core';
import type { Clock } from '@tandem/ai';
import type { SessionContexts } from './context/session-contexts.js';
import { SessionJobs } from './jobs/job-manager.js';
import type { McpHub } from './mcp/mcp-hub.js';
import type { WorkspaceMemories } from './memory/workspace-memories.js';
import { whatsappBridge } from './messaging/whatsapp-bridge.js';
import type { OsSandbox } from './os-sandbox/os-sandbox.js';
import type { PackageInstalls } from './packages/package-installs.js';
import type { GuardsHost } from './permissions/guards-host.js';
import { PtyCommandRunner } from './pty/pty-runner.js';
import { checkpointGate } from './checkpoints/checkpoint-gate.js';
import type { Checkpoints } from './checkpoints/checkpoints.js';
import type { CommandEnvPolicy } from './os-sandbox/command-env.js';
import { NetworkDecider, type NetworkSettings } from './network/network-decider.js';
import type { HostEnvironment, HostEnvironmentFactory, SessionHost, SessionRunner, TurnStep } from './sessions/session-environment.js';
import type { WorkspaceSkills } from './skills/workspace-skills.js';

export interface HostParts {
  clock: Clock;
  logger: Logger;
  osSandbox: OsSandbox;
  /** The guards' permission gate; undefined when the guards are off. */
  guards: GuardsHost | undefined;
  contexts: SessionContexts;
  memories: WorkspaceMemories;
  mcp: McpHub;
  skills: WorkspaceSkills;
  /** External packages' dependency installs, asked before a turn's first model request. */
  installs?: PackageInstalls | undefined;
  /** Opens the reverse bridge for each run of an external agent. */
  bridge?: HostEnvironment['bridge'];
  /** Shapes the turns of agents with `evolve: true`. */
  evolvingTurn?: HostEnvironment['evolvingTurn'];
  /** The MCP server that bridges WhatsApp (config.json `whatsapp.mcpServer`). */
  whatsappServer: string | undefined;
  /** Services every session shares (command settings, web, calendar, providers, routines). */
  shared: ToolServices;
  /** What of the server's environment commands never see (config.json `sandbox.passEnv`, the tokens, the provider keys). */
  envPolicy: CommandEnvPolicy;
  /** config.json `sandbox.network` and `sandbox.allowHosts`, read at each connection. */
  network: () => NetworkSettings;
  /** The ports this server listens on: never reachable from a command. */
  serverPorts: () => readonly number[];
  /** Checkpoints of the workspace before each turn changes it (undo, diff). */
  checkpoints: Checkpoints;
  runner?: ((session: SessionHost) => SessionRunner) | undefined;
  gate?: ((session: SessionHost) => ToolGate) | undefined;
  turnStep?: TurnStep | undefined;
}

/**
 * Builds what the server adds to each session, once, when it opens: the pty runner inside the
 * OS sandbox, the guards' gate, the session's services (jobs, messaging, skills, memory and the
 * shared ones), its context accounting, and the steps over each turn (memory frozen for the
 * turn, the skills of the moment, MCP approvals and tools). Context or memory that cannot be
 * opened is left out with a warning in the server log; the session still runs.
 */
export function hostEnvironmentFactory(parts: HostParts): HostEnvironmentFactory {
  return async (session): Promise<HostEnvironment> => {
    const { clock, logger, osSandbox, mcp, skills } = parts;
    const [context, memory] = await Promise.allSettled([parts.contexts.for(session), parts.memories.for(session.meta.cwd)]);
    if (context.status === 'rejected') logger.warn({ err: context.reason, sessionId: session.id }, 'context accounting is off for this session');
    if (memory.status === 'rejected') logger.warn({ err: memory.reason, sessionId: session.id }, 'memory is off for this session');
    const guardGate = parts.gate?.(session) ?? parts.guards?.gateFactory(session);
    // Before a call that may change the workspace runs, its checkpoint (after the gate allowed it).
    const checkpoints = parts.checkpoints.forSession({ id: session.id, dir: session.dir, cwd: session.meta.cwd }, (body) => session.emit(body));
    const gate = checkpoints ? checkpointGate(guardGate, checkpoints) : guardGate;
    // A command's connection is asked about through the session's own permission step.
    const connections = new NetworkDecider({
      settings: parts.network,
      ask: (call, signal) => (parts.guards?.guardsFor(session.id)?.permissions ?? guardGate ?? denyAll).check(call, signal),
      turnId: () => session.currentTurnId?.(),
    });
    const sandbox = osSandbox.wrapperFor({
      writableRoots: () => session.writableRoots(),
      writeGrants: () => session.writeGrants?.() ?? [],
      connections,
      serverPorts: parts.serverPorts,
    });
    const { envPolicy } = parts;
    const runner = parts.runner?.(session) ?? new PtyCommandRunner({ logDir: session.commandLogDir, clock, sandbox, envPolicy });
    const jobs = new SessionJobs({ sessionId: session.id, logDir: join(session.dir, 'jobs'), emit: (body) => session.emit(body), clock, sandbox, envPolicy });
    session.onClose(() => jobs.stopAll());
    const workspaceMemory: WorkspaceMemory | undefined = memory.status === 'fulfilled' ? memory.value : undefined;
    const services: ToolServices = {
      ...parts.shared,
      jobs,
      ...(parts.whatsappServer ? { messaging: whatsappBridge(mcp, parts.whatsappServer, session.meta.cwd) } : {}),
      skills: skills.catalog(session.meta.cwd),
      ...(workspaceMemory ? { memory: workspaceMemory } : {}),
    };
    const { installs } = parts;
    // A package's dependency install: only its folder writable, the session's network decisions.
    const installRunner = (dir: string) =>
      new PtyCommandRunner({
        logDir: session.commandLogDir,
        clock,
        sandbox: osSandbox.wrapperFor({ writableRoots: () => [dir], connections, serverPorts: parts.serverPorts }),
        envPolicy,
      });
    const turnSteps: TurnStep[] = [
      ...(installs ? [(options: TurnOptions) => installs.extendTurn(session, options, installRunner)] : []),
      ...(workspaceMemory ? [memoryStep(workspaceMemory)] : []),
      (options) => skills.extendTurn(session, options),
      (options) => mcp.extendTurn(session, options),
      ...(parts.turnStep ? [parts.turnStep] : []),
    ];
    return {
      runner,
      gate,
      services,
      context: context.status === 'fulfilled' ? (context.value as TurnContext) : undefined,
      agentContext: (agent, model) =>
        parts.contexts.forAgent(session, agent, model).then(
          (c) => c as TurnContext,
          (err: unknown) => {
            logger.warn({ err, sessionId: session.id, agent }, 'context accounting is off for this agent');
            return undefined;
          },
        ),
      sandbox: parts.runner ? undefined : osSandbox.describe(),
      checkpoints,
      checkpointsOff: parts.checkpoints.off,
      turnSteps,
      ...(parts.bridge ? { bridge: parts.bridge } : {}),
      ...(parts.evolvingTurn ? { evolvingTurn: parts.evolvingTurn } : {}),
    };
  };
}

/** The workspace's memory frozen into this turn's system prompt (requirements H5). */
function memoryStep(memory: WorkspaceMemory): TurnStep {
  return (options) => ({ ...options, prompt: { ...options.prompt, memory: turnMemory(memory) } });
}

/** Without any permission gate nobody can be asked: a connection that would ask is refused. */
const denyAll: ToolGate = { check: async () => ({ allow: false, reason: 'this session has no permission gate to ask' }) };
