import { join } from 'node:path';
import type { Logger } from 'pino';
import { turnMemory, type Clock, type ToolGate, type ToolServices, type TurnContext, type TurnOptions, type WorkspaceMemory } from '@tandem/core';
import type { SessionContexts } from './context/session-contexts.js';
import { SessionJobs } from './jobs/job-manager.js';
import type { McpHub } from './mcp/mcp-hub.js';
import type { WorkspaceMemories } from './memory/workspace-memories.js';
import { whatsappBridge } from './messaging/whatsapp-bridge.js';
import type { OsSandbox } from './os-sandbox/os-sandbox.js';
import type { PackageInstalls } from './packages/package-installs.js';
import type { GuardsHost } from './permissions/guards-host.js';
import { PtyCommandRunner } from './pty/pty-runner.js';
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
    const sandbox = osSandbox.wrapperFor(() => session.writableRoots());
    const runner = parts.runner?.(session) ?? new PtyCommandRunner({ logDir: session.commandLogDir, clock, sandbox });
    const jobs = new SessionJobs({ sessionId: session.id, logDir: join(session.dir, 'jobs'), emit: (body) => session.emit(body), clock, sandbox });
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
    const turnSteps: TurnStep[] = [
      ...(installs ? [(options: TurnOptions) => installs.extendTurn(session, options)] : []),
      ...(workspaceMemory ? [memoryStep(workspaceMemory)] : []),
      (options) => skills.extendTurn(session, options),
      (options) => mcp.extendTurn(session, options),
      ...(parts.turnStep ? [parts.turnStep] : []),
    ];
    return {
      runner,
      gate: parts.gate?.(session) ?? parts.guards?.gateFactory(session),
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
