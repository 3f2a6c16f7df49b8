import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { checkCommandBlacklist } from '@tandem/coding-tools';
import pino, { type Logger } from 'pino';
import { Server as IoServer } from 'socket.io';
import { SESSION_EVENT } from '@tandem/shared';
import { builtinTools } from '@tandem/tools';
import { estimateTextTokens, memoryTools, type ToolServices, type TurnLimits } from '@tandem/core';
import type { RoutineHost } from '@tandem/assistant-tools';
import { resolveMemoryChain, Governor, modelInfo, modelWarnings, systemClock, type Clock } from '@tandem/ai';
import type { ApplicationDeps } from './application-deps.js';
import { authenticate, type ClientIdentity } from './auth.js';
import { HandshakeLockout } from './auth/handshake-lockout.js';
import type { ClusterNode } from './cluster/cluster-node.js';
import { configuredDefaultModel, providerConfigurator, withStoredKeys } from './config/provider-configurator.js';
import { loadServerSettings, type ServerSettings } from './config/server-settings.js';
import { userTimeZone } from './config/time-zone.js';
import { webSearcherFromSettings } from './config/web-searcher-from-settings.js';
import { SessionContexts } from './context/session-contexts.js';
import { contextHandlers } from './handlers/context-handlers.js';
import { costHandlers } from './handlers/cost-handlers.js';
import { answerCommand, bindCommands, type AccessChecks, type HandlerMap } from './handlers/dispatch.js';
import { jobHandlers } from './handlers/job-handlers.js';
import { mcpHandlers } from './handlers/mcp-handlers.js';
import { memoryHandlers } from './handlers/memory-handlers.js';
import { modelHandlers } from './handlers/model-handlers.js';
import { routineHandlers } from './handlers/routine-handlers.js';
import { sandboxHandlers } from './handlers/sandbox-handlers.js';
import { checkpointHandlers } from './handlers/checkpoint-handlers.js';
import { Checkpoints } from './checkpoints/checkpoints.js';
import { serverHandlers } from './handlers/server-handlers.js';
import { sessionHandlers, sessionRoom } from './handlers/session-handlers.js';
import { shareHandlers } from './handlers/share-handlers.js';
import { skillsHandlers } from './handlers/skills-handlers.js';
import { commandsHandlers } from './handlers/commands-handlers.js';
import { turnHandlers } from './handlers/turn-handlers.js';
import { McpHub } from './mcp/mcp-hub.js';
import { embeddingsFrom } from './memory/embeddings-from-settings.js';
import { WorkspaceMemories } from './memory/workspace-memories.js';
import { startOsSandbox } from './os-sandbox/start-os-sandbox.js';
import { commandEnvPolicyFor } from './os-sandbox/command-env-settings.js';
import { openGuardsHost, type GuardsHost, type GuardsHostOptions } from './permissions/guards-host.js';
import { RoutineScheduler } from './routines/routine-scheduler.js';
import { RoutineStore } from './routines/routine-store.js';
import { hostEnvironmentFactory } from './session-host-environment.js';
import { defaultEngine } from './sessions/default-engine.js';
import type { SessionEngine } from './sessions/engine.js';
import { defaultModelFactory, loadProvidersConfig } from './sessions/model-factory.js';
import { SessionManager } from './sessions/session-manager.js';
import type { SessionHooks } from './sessions/session.js';
import { FileShareStore } from './shares/file-share-store.js';
import { ShareService } from './shares/share-service.js';
import { ShareSockets } from './shares/share-sockets.js';
import type { ShareStore } from './shares/share-store.js';
import { WorkspaceSkills } from './skills/workspace-skills.js';
import { bridgeSocketDir } from './bridge/bridge-dir.js';
import { BridgeHost } from './bridge/bridge-host.js';
import { connectorCallTool } from './bridge/bridge-tools.js';
import { SERVER_VERSION } from './handlers/server-handlers.js';
import { InstalledPackages } from './packages/installed-packages.js';
import { PackageInstalls } from './packages/package-installs.js';
import { packagesHandlers } from './handlers/packages-handlers.js';
import { evolutionHandlers } from './handlers/evolution-handlers.js';
import { AgentEvolution } from './evolution/agent-evolution.js';
import { evolvingAgentTurn } from './evolution/evolving-agent-turn.js';
import { SignalRecorder } from './evolution/signal-recorder.js';
import { serveWebViewer } from './web/serve-web.js';
import { coalesceFlushedFrames } from './handlers/frame-coalescing.js';
import { eventFrameParser } from './handlers/event-frame-parser.js';

export const DEFAULT_MODEL = 'openai/gpt-4.1-mini';

export type { ApplicationDeps, ApplicationSeams } from './application-deps.js';

export interface Application {
  /** HTTP, or HTTPS when `deps.tls` was given. */
  httpServer: HttpServer | HttpsServer;
  io: IoServer;
  sessions: SessionManager;
  /** Shares of sessions: one person, one session, one role (see ARCHITECTURE "Sharing one session"). */
  shares: ShareService;
  /** This node's membership of a cluster (`--redis`); absent on a single node. */
  cluster?: ClusterNode;
  listen(port: number, host?: string): Promise<{ url: string }>;
  /** Ends running turns as interrupted, kills their commands, flushes logs, closes sockets. */
  close(): Promise<void>;
}

/**
 * Builds the server from its parts; no globals, so a test can start several. Resolves once the
 * guards are open and the sessions on disk are loaded: everything it returns is ready to use.
 */
export async function createApplication(deps: ApplicationDeps): Promise<Application> {
  const seams = deps.seams ?? {};
  const env = deps.env ?? process.env;
  const logger = deps.logger ?? pino({ level: 'silent' });
  const clock = deps.clock ?? systemClock;
  const home = deps.defaults?.home ?? homedir();
  const defaultCwd = deps.defaults?.cwd ?? process.cwd();
  const config = loadProvidersConfig(deps.dataDir, logger);
  const settings = seams.settings ?? loadSettings(deps.dataDir, logger);
  const checkpoints = new Checkpoints({ dataDir: deps.dataDir, settings: settings.checkpoints, logger });
  // Each new model client reads config.json's providers again: key and endpoint edits need no restart,
  // and a provider of one's own added there is usable (and listed) from the next session or /model.
  const currentProvidersConfig = () => withStoredKeys(loadProvidersConfig(deps.dataDir, logger), deps.dataDir);
  const engine: SessionEngine = { ...defaultEngine(config, { dataDir: deps.dataDir, providersConfig: currentProvidersConfig }), ...seams.engine };
  const governor = new Governor({ clock });
  const startedAtMs = clock.now();
  const modelFactory = seams.modelFactory ?? defaultModelFactory(env, currentProvidersConfig, clock, governor);
  // External packages: their shims come first on every command's PATH; the sandbox shows their folders read-only.
  const installed = new InstalledPackages(deps.dataDir);
  const bridgeDir = bridgeSocketDir(deps.dataDir);
  const visible = [installed.registry.binDir, installed.registry.packagesDir, bridgeDir];
  const osSandbox =
    seams.osSandbox ??
    startOsSandbox({
      settings: settings.commandSandbox,
      home,
      dataDir: deps.dataDir,
      visible,
      logger,
      networkMode: () => settings.sandbox?.network ?? 'ask',
    });
  // Cluster (`--redis`): Redis must answer before anything else starts.
  // Redis and its adapter load only for a cluster node (`--redis`).
  const cluster = deps.cluster ? await (await import('./cluster/cluster-node.js')).ClusterNode.connect(deps.cluster, logger) : undefined;
  const guards = seams.guards === 'off' ? undefined : await openGuardsHost(guardsOptions(deps, settings, clock, logger));

  const serveHttp = (req: IncomingMessage, res: ServerResponse) => {
    if (serveWebViewer(req, res, env)) return; // GET / : the web viewer (packages/web)
    res.writeHead(404, { 'content-type': 'text/plain' }).end('tandem server: connect with a tandem client (socket.io)\n');
  };
  // TLS (`tandem serve --tls-cert --tls-key`): the same server over HTTPS and WSS.
  const httpServer = deps.tls ? createHttpsServer({ cert: deps.tls.cert, key: deps.tls.key }, serveHttp) : createServer(serveHttp);
  const io = new IoServer(httpServer, {
    serveClient: false,
    maxHttpBufferSize: 4 * 1024 * 1024,
    parser: eventFrameParser,
    ...(cluster ? { adapter: cluster.adapter } : {}),
  });
  coalesceFlushedFrames(io);
  // Shares: in the data directory on one node, in Redis across a cluster (every node checks every token).
  let shareStore: ShareStore;
  try {
    shareStore = cluster ? cluster.shareStore(clock) : await openShareStore(deps.dataDir, clock, logger);
  } catch (err) {
    await guards?.close();
    cluster?.disconnect();
    throw err;
  }
  const shares = new ShareService({ store: shareStore, sockets: new ShareSockets(io, clock), clock, logger, ...(guards ? { audit: guards.audit } : {}) });

  const resolve = {
    env,
    // Read when a session's context or the memory chain is set up (not per request): config.json as it is now.
    get config() {
      return currentProvidersConfig();
    },
    clock,
    governor,
    estimateTokens: estimateTextTokens,
  };
  const contexts = new SessionContexts(resolve);
  let sessions: SessionManager | undefined;
  const memories = new WorkspaceMemories({
    dataDir: deps.dataDir,
    clock,
    embeddings: embeddingsFrom(settings, env),
    onQuarantine: ({ kind, reason, source }) => {
      if (source) sessions?.get(source)?.emit({ type: 'memory_quarantined', kind, reason });
    },
  });
  // MCP servers (requirements K1): per workspace, started lazily, stopped with the server.
  const envPolicy = commandEnvPolicyFor(settings, deps.tokens);
  const mcp = new McpHub({
    dataDir: deps.dataDir,
    env,
    envPolicy,
    logger,
    clock,
    // The config of the start answers without reading a file; a provider added since is read now.
    contextWindow: (model) => {
      try {
        return modelInfo(model, config).contextWindow;
      } catch {
        return modelInfo(model, currentProvidersConfig()).contextWindow;
      }
    },
    ...(seams.mcpToolSchemaBudgetTokens !== undefined ? { toolSchemaBudgetTokens: seams.mcpToolSchemaBudgetTokens } : {}),
  });
  // The reverse bridge: a socket and a token per run of an external agent (TANDEM_BRIDGE).
  const bridge = new BridgeHost({ dir: bridgeDir, connector: connectorCallTool(mcp), version: SERVER_VERSION, logger });
  // Skills (requirements K2, T2): listed in the prompt, read_skill, skill__NAME commands through run_command's path.
  const skills = new WorkspaceSkills({ dataDir: deps.dataDir, home });
  // Self-evolution (agents with evolve: true): signals from their turns, reflections with the memory chain.
  const evolution = new AgentEvolution({
    dataDir: deps.dataDir,
    clock,
    logger,
    settings: settings.agents?.reflection,
    chain: () => resolveMemoryChain({ ...resolve, onEvent: () => undefined }).chain,
    emitTo: (sessionId, body) => void sessions?.get(sessionId)?.emit(body),
  });
  const signals = new SignalRecorder(
    (agent, signal) => evolution.addSignal(agent, signal),
    (agent) =>
      new Set(
        evolution
          .library(agent)
          .skills({ checkCommand: checkCommandBlacklist })
          .map((s) => s.name),
      ),
    () => clock.now(),
  );
  const routines = new RoutineStore(deps.dataDir);
  // The user's zone, asked when a calendar tool or a routine first needs it: the server's own
  // zone comes from ICU, whose first use costs ~25 ms that a start without either need not pay.
  let zone: string | undefined;
  const timeZone = () => (zone ??= userTimeZone(settings, env));
  let scheduler: RoutineScheduler | undefined;
  const shared: ToolServices = {
    ...(settings.commandTimeoutMs !== undefined ? { defaultCommandTimeoutMs: settings.commandTimeoutMs } : {}),
    ...(settings.maxCommandTimeoutMs !== undefined ? { maxCommandTimeoutMs: settings.maxCommandTimeoutMs } : {}),
    commandCheck: checkCommandBlacklist,
    commandEnv: { ...settings.commandEnv, PATH: commandPath(installed.registry.binDir, settings.commandEnv?.PATH) },
    webSearcher: webSearcherFromSettings(settings.webSearch, env, clock, logger),
    ...(settings.webFetch ? { webFetch: settings.webFetch } : {}),
    providers: providerConfigurator(deps.dataDir),
    calendar: {
      calendars: settings.calendars ?? [],
      get timezone() {
        return timeZone();
      },
      env,
    },
    // The scheduler needs the session manager, built below; the tools reach it through this.
    routines: {
      create: (input, sessionId, by) => scheduler!.create(input, sessionId, by),
      list: () => scheduler!.list(),
      cancel: (id, by) => scheduler!.cancel(id, by),
    } satisfies RoutineHost,
  };
  const limits: Partial<TurnLimits> = {
    ...(settings.maxIterations !== undefined ? { maxIterations: settings.maxIterations } : {}),
    ...(settings.toolTimeoutMs !== undefined ? { toolTimeoutMs: settings.toolTimeoutMs } : {}),
    ...seams.limits,
  };

  const manager = new SessionManager({
    dataDir: deps.dataDir,
    home,
    defaultCwd,
    // A default set from the chat (configure_provider, in config.json) is the freshest choice.
    defaultModel: () => configuredDefaultModel(deps.dataDir) ?? deps.defaults?.model ?? env.TANDEM_MODEL ?? DEFAULT_MODEL,
    engine,
    modelFactory,
    checkModel: (spec) => void modelInfo(spec, currentProvidersConfig()),
    modelWarnings: (spec) => modelWarnings(spec, currentProvidersConfig(), env),
    toolsFactory: seams.tools ?? (() => [...builtinTools(), ...memoryTools]),
    environment: hostEnvironmentFactory({
      clock,
      logger,
      osSandbox,
      guards,
      contexts,
      memories,
      mcp,
      skills,
      installs: new PackageInstalls({
        packages: installed,
        env: () => shared.commandEnv ?? {},
        clock,
        logger,
      }),
      whatsappServer: settings.whatsapp?.mcpServer,
      bridge: (run) => bridge.open(run),
      evolvingTurn: (options, definition) => evolvingAgentTurn(options, definition, evolution, home),
      shared,
      envPolicy,
      network: () => settings.sandbox ?? {},
      // The port this node listens on, once it does (a command can never reach it).
      checkpoints,
      serverPorts: () => {
        const address = httpServer.address();
        return address && typeof address === 'object' ? [address.port] : [];
      },
      runner: seams.runner,
      gate: seams.gate,
      turnStep: seams.turnStep,
    }),
    clock,
    logger,
    limits: Object.keys(limits).length > 0 ? limits : undefined,
    agents: settings.agents,
    hooks: composeHooks(guards, { onEvent: (session, event) => signals.observe(session, event) }, seams.hooks),
    broadcast: (sessionId, event) => {
      io.to(sessionRoom(sessionId)).emit(SESSION_EVENT, event);
      cluster?.onEvent(sessionId, event);
    },
    onDeleted: (sessionId) => {
      io.in(sessionRoom(sessionId)).socketsLeave(sessionRoom(sessionId));
      shares.endSession(sessionId, 'session deleted').catch((err: unknown) => logger.warn({ err, sessionId }, "could not revoke a deleted session's shares"));
    },
  });
  sessions = manager;
  scheduler = new RoutineScheduler({
    store: routines,
    clock,
    sessions: manager,
    graceMs: settings.routines?.missedRunGraceMs ?? 60 * 60_000,
    get defaultTimezone() {
      return timeZone();
    },
    logger,
  });
  const routineScheduler = scheduler;
  try {
    await manager.loadAll();
    await routineScheduler.start();
    evolution.start();
  } catch (err) {
    await guards?.close();
    await mcp.close();
    cluster?.disconnect();
    throw err;
  }

  const localHandlers: HandlerMap = {
    ...sessionHandlers(manager),
    ...serverHandlers({ sessions: manager, env, providersConfig: currentProvidersConfig, clock, startedAtMs, sandbox: () => osSandbox.describe() }),
    ...turnHandlers(manager),
    ...jobHandlers(manager),
    ...sandboxHandlers(manager),
    ...checkpointHandlers(manager),
    ...modelHandlers(() => engine.listModels()),
    ...contextHandlers(manager, contexts),
    ...costHandlers(manager),
    ...memoryHandlers({ sessions: manager, memories, dataDir: deps.dataDir, resolve }),
    ...mcpHandlers(mcp, manager, defaultCwd),
    ...skillsHandlers(skills, manager, defaultCwd),
    ...commandsHandlers(manager, { dataDir: deps.dataDir, home }),
    ...packagesHandlers(installed),
    ...evolutionHandlers(evolution, manager, defaultCwd),
    ...routineHandlers(routineScheduler),
    ...shareHandlers(shares, manager),
    ...guards?.handlers,
    ...seams.handlers,
  };
  const localAccess: AccessChecks = {
    requireSession: (id: string) => void manager.require(id),
    attachedRole: (id: string, socketId: string) => manager.get(id)?.presence.roleOf(socketId),
  };
  // In a cluster: the merged session list, and commands about other nodes' sessions forwarded there.
  const handlers = cluster ? cluster.wrapHandlers(localHandlers) : localHandlers;
  const access: AccessChecks = cluster ? { ...localAccess, route: (name, payload, ctx) => cluster.route(name, payload, ctx) } : localAccess;
  if (cluster) {
    try {
      await cluster.start({ io, sessions: manager, run: (name, payload, socket) => answerCommand(name, payload, socket, handlers, localAccess, logger) });
    } catch (err) {
      await routineScheduler.stop();
      await manager.closeAll(seams.shutdownGraceMs);
      await guards?.close();
      await mcp.close();
      cluster.disconnect();
      throw err;
    }
  }
  const limiterFactory = seams.commandLimiter ?? (guards ? () => guards.commandLimiterFactory() : undefined);

  const lockout = new HandshakeLockout({
    clock,
    ...seams.handshakeLockout,
    onLocked: (address, untilMs) =>
      logger.warn({ address, until: new Date(untilMs).toISOString() }, 'too many refused handshakes from one address; refusing it for a while (rate_limited)'),
  });
  io.use(authenticate({ tokens: deps.tokens, verifyShare: shares.verify, lockout }));
  io.on('connection', (socket) => {
    const client = socket.data as ClientIdentity;
    logger.info({ socketId: socket.id, name: client.name, token: client.tokenKind, ...(client.share ? { share: client.share.id } : {}) }, 'client connected');
    shares.connected(socket);
    bindCommands(socket, handlers, access, logger, limiterFactory?.(socket));
    socket.on('disconnect', (reason) => {
      logger.info({ socketId: socket.id, reason }, 'client disconnected');
      for (const session of manager.all()) session.detachClient(socket.id);
      cluster?.onDisconnect(socket.id);
    });
  });

  let closing: Promise<void> | undefined;
  return {
    httpServer,
    io,
    sessions: manager,
    shares,
    ...(cluster ? { cluster } : {}),
    async listen(port, host = '127.0.0.1') {
      await new Promise<void>((resolve, reject) => {
        httpServer.once('error', reject);
        httpServer.listen(port, host, () => {
          httpServer.off('error', reject);
          resolve();
        });
      });
      const address = httpServer.address() as AddressInfo;
      const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      return { url: `${deps.tls ? 'https' : 'http'}://${shownHost}:${address.port}` };
    },
    close() {
      closing ??= (async () => {
        await routineScheduler.stop();
        await evolution.stop();
        await manager.closeAll(seams.shutdownGraceMs);
        // A workspace's first snapshot may still be hashing files: nothing writes after close().
        await checkpoints.settled();
        await cluster?.leave();
        await mcp.close();
        await guards?.close();
        // This node's sockets only: through the cluster adapter, io.disconnectSockets() reaches every node's.
        io.local.disconnectSockets(true);
        await new Promise<void>((resolve) => io.close(() => resolve()));
        cluster?.disconnect();
        if (httpServer.listening) await new Promise<void>((resolve) => httpServer.close(() => resolve()));
      })();
      return closing;
    },
  };
}

async function openShareStore(dataDir: string, clock: Clock, logger: Logger): Promise<FileShareStore> {
  const store = await FileShareStore.open(dataDir, clock);
  for (const warning of store.warnings) logger.warn(warning);
  return store;
}

/** `<data-dir>/bin` first, then config.json's `commandEnv.PATH` or the server's own PATH. */
function commandPath(binDir: string, configured: string | undefined): string {
  const rest = configured ?? process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin';
  return `${binDir}:${rest}`;
}

function loadSettings(dataDir: string, logger: Logger): ServerSettings {
  const { settings, warnings } = loadServerSettings(dataDir);
  for (const warning of warnings) logger.warn(warning);
  return settings;
}

/** config.json's limits, then whatever the embedder passed in `deps.guards`. */
function guardsOptions(deps: ApplicationDeps, settings: ServerSettings, clock: Clock, logger: Logger): GuardsHostOptions {
  const tuned = deps.seams?.guards === 'off' ? {} : (deps.seams?.guards ?? {});
  const rateLimit = {
    ...(settings.toolCallsPerMinute !== undefined ? { maxCalls: settings.toolCallsPerMinute, windowMs: 60_000 } : {}),
    ...(settings.identicalCallCooldownMs !== undefined ? { identicalCooldownMs: settings.identicalCallCooldownMs } : {}),
    ...tuned.rateLimit,
  };
  return {
    dataDir: deps.dataDir,
    clock,
    // The audit log masks the secrets of the server's environment and of what the sessions get.
    auditEnv: deps.env && deps.env !== process.env ? { ...process.env, ...deps.env } : process.env,
    onWarning: (message) => logger.warn(message),
    ...(settings.permissionTimeoutMs !== undefined ? { permissionTimeoutMs: settings.permissionTimeoutMs } : {}),
    ...(settings.readOnlyCommands ? { readOnlyCommands: settings.readOnlyCommands } : {}),
    ...tuned,
    ...(Object.keys(rateLimit).length > 0 ? { rateLimit } : {}),
  };
}

/** The guards' audit hook first, then the server's own observers (self-evolution's signals), then the embedder's hooks. */
function composeHooks(guards: GuardsHost | undefined, own: Required<Pick<SessionHooks, 'onEvent'>>, hooks: SessionHooks = {}): SessionHooks {
  return {
    onEvent(session, event) {
      guards?.hooks.onEvent(session, event);
      try {
        own.onEvent(session, event);
      } catch {
        // an observer never stops the event
      }
      hooks.onEvent?.(session, event);
    },
    ...(hooks.onToolResult ? { onToolResult: hooks.onToolResult } : {}),
  };
}
