import { createServer, type Server as HttpServer } from 'node:http';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import pino, { type Logger } from 'pino';
import { Server as IoServer, type Socket } from 'socket.io';
import { SESSION_EVENT } from '@tandem/shared';
import {
  builtinTools,
  type RoutineHost,
  estimateTextTokens,
  Governor,
  memoryTools,
  modelInfo,
  modelWarnings,
  systemClock,
  type AnyTool,
  type Clock,
  type ToolGate,
  type ToolServices,
  type TurnLimits,
  type TurnOptions,
} from '@tandem/core';
import { authenticate, type ClientIdentity, type Tokens } from './auth.js';
import { webSearcherFromSettings } from './config/web-searcher-from-settings.js';
import { userTimeZone } from './config/time-zone.js';
import { configuredDefaultModel, providerConfigurator, withStoredKeys } from './config/provider-configurator.js';
import { routineHandlers } from './handlers/routine-handlers.js';
import { whatsappBridge } from './messaging/whatsapp-bridge.js';
import { RoutineScheduler } from './routines/routine-scheduler.js';
import { RoutineStore } from './routines/routine-store.js';
import { loadServerSettings, type ServerSettings } from './config/server-settings.js';
import { SessionContexts } from './context/session-contexts.js';
import { contextHandlers } from './handlers/context-handlers.js';
import { bindCommands, type CommandLimiter, type HandlerMap } from './handlers/dispatch.js';
import { memoryHandlers } from './handlers/memory-handlers.js';
import { mcpHandlers } from './handlers/mcp-handlers.js';
import { McpHub } from './mcp/mcp-hub.js';
import { skillsHandlers } from './handlers/skills-handlers.js';
import { WorkspaceSkills } from './skills/workspace-skills.js';
import { serveWebViewer } from './web/serve-web.js';
import { jobHandlers } from './handlers/job-handlers.js';
import { modelHandlers } from './handlers/model-handlers.js';
import { sandboxHandlers } from './handlers/sandbox-handlers.js';
import { serverHandlers } from './handlers/server-handlers.js';
import { sessionHandlers, sessionRoom } from './handlers/session-handlers.js';
import { turnHandlers } from './handlers/turn-handlers.js';
import { SessionJobs } from './jobs/job-manager.js';
import { WorkspaceMemories } from './memory/workspace-memories.js';
import { DeferredGuards } from './permissions/deferred-guards.js';
import type { GuardsHostOptions } from './permissions/guards-host.js';
import { PtyCommandRunner } from './pty/pty-runner.js';
import type { OsSandbox } from './os-sandbox/os-sandbox.js';
import { startOsSandbox } from './os-sandbox/start-os-sandbox.js';
import { defaultEngine } from './sessions/default-engine.js';
import type { ModelFactory, SessionEngine } from './sessions/engine.js';
import { defaultModelFactory, loadProvidersConfig } from './sessions/model-factory.js';
import { SessionManager } from './sessions/session-manager.js';
import type { Session, SessionHooks, SessionRunner } from './sessions/session.js';
import { turnExtras } from './sessions/turn-extras.js';
import { embeddingsFrom } from './memory/embeddings-from-settings.js';

export const DEFAULT_MODEL = 'openai/gpt-4.1-mini';

export interface ApplicationDeps {
  dataDir: string;
  tokens: Tokens;
  logger?: Logger;
  clock?: Clock;
  /** Environment for providers and defaults; default process.env. */
  env?: NodeJS.ProcessEnv;
  /** spec → ModelClient; default core's resolveModelClient with `env` and `<dataDir>/config.json`. */
  modelFactory?: ModelFactory;
  /** Default TANDEM_MODEL, else openai/gpt-4.1-mini. */
  defaultModel?: string;
  /** Workspace of a session created without `cwd`; default the server's cwd. */
  defaultCwd?: string;
  home?: string;
  /** Replaces single engine parts (tests: a scripted loop). */
  engine?: Partial<SessionEngine>;
  runnerFactory?: (session: Session) => SessionRunner;
  toolsFactory?: () => AnyTool[];
  /** Seam for the permission broker and rate limiter: the checks between validation and execution. */
  gateFactory?: (session: Session) => ToolGate;
  /** Host services for tools (job manager, memory store, ...). */
  servicesFactory?: (session: Session) => ToolServices;
  /** Seam for audit recording. */
  hooks?: SessionHooks;
  /**
   * Seam for per-turn engine extras (context accounting and compaction, memory): gets the
   * options the session built and returns the ones to run the turn with.
   */
  extendTurn?: (session: Session, options: TurnOptions) => TurnOptions | Promise<TurnOptions>;
  /** Loop limits for every turn (requirements A5 defaults: 40 iterations, 120 s per tool). */
  limits?: Partial<TurnLimits>;
  /** On close, how long a running turn gets to stop before it is recorded as interrupted anyway (default 5 s). */
  shutdownGraceMs?: number;
  /** Extra or replacing command handlers (permission:respond, audit:query, session:new, ...). */
  handlers?: HandlerMap;
  /** Replaces the per-connection flood control of the guards (20 commands/s, burst 40). */
  commandLimiterFactory?: (socket: Socket) => CommandLimiter;
  /**
   * The guards (permission gate, per-session call rate limit, audit log, per-connection command
   * limiter) are on unless this is `'off'` — only for tests of unrelated features. An object
   * tunes them (over config.json's values).
   */
  guards?: 'off' | Partial<Omit<GuardsHostOptions, 'dataDir' | 'clock'>>;
  /** MCP tool schemas past this many tokens are loaded on demand (default: 10 % of the model's window). */
  mcpToolSchemaBudgetTokens?: number;
  /** Server limits; default `<dataDir>/config.json` (see README). */
  settings?: ServerSettings;
  /** The OS sandbox under every command; default probed once at start from config.json's `commandSandbox`. */
  osSandbox?: OsSandbox;
}

export interface Application {
  httpServer: HttpServer;
  io: IoServer;
  sessions: SessionManager;
  /** Resolves once the sessions on disk are loaded (listen waits for it). */
  ready: Promise<void>;
  listen(port: number, host?: string): Promise<{ url: string }>;
  /** Ends running turns as interrupted, kills their commands, flushes logs, closes sockets. */
  close(): Promise<void>;
}

/** Builds the server from its parts; no globals, so a test can start several. */
export function createApplication(deps: ApplicationDeps): Application {
  const env = deps.env ?? process.env;
  const logger = deps.logger ?? pino({ level: 'silent' });
  const clock = deps.clock ?? systemClock;
  const config = loadProvidersConfig(deps.dataDir, logger);
  const settings = deps.settings ?? loadSettings(deps.dataDir, logger);
  const engine: SessionEngine = { ...defaultEngine(config), ...deps.engine };
  const governor = new Governor({ clock });
  const startedAtMs = clock.now();
  // Each new model client reads config.json's providers again: key and endpoint edits need no restart.
  const currentProvidersConfig = () => withStoredKeys(loadProvidersConfig(deps.dataDir, logger), deps.dataDir);
  const modelFactory = deps.modelFactory ?? defaultModelFactory(env, currentProvidersConfig, clock, governor);
  const osSandbox = deps.osSandbox ?? startOsSandbox({ settings: settings.commandSandbox, home: deps.home ?? homedir(), dataDir: deps.dataDir, logger });
  const guards = deps.guards === 'off' ? undefined : new DeferredGuards(guardsOptions(deps, settings, clock, logger));

  const httpServer = createServer((req, res) => {
    if (serveWebViewer(req, res, env)) return; // GET / : the web viewer (packages/web)
    res.writeHead(404, { 'content-type': 'text/plain' }).end('tandem server: connect with a tandem client (socket.io)\n');
  });
  const io = new IoServer(httpServer, { serveClient: false, maxHttpBufferSize: 4 * 1024 * 1024 });

  const resolve = { env, config, clock, governor, estimateTokens: estimateTextTokens };
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
  const extras = turnExtras({ contexts, memories, logger });
  // MCP servers (requirements K1): per workspace, started lazily, stopped with the server.
  const mcp = new McpHub({
    dataDir: deps.dataDir,
    env,
    logger,
    clock,
    contextWindow: (model) => modelInfo(model, config).contextWindow,
    ...(deps.mcpToolSchemaBudgetTokens !== undefined ? { toolSchemaBudgetTokens: deps.mcpToolSchemaBudgetTokens } : {}),
  });
  const defaultCwd = deps.defaultCwd ?? process.cwd();
  // Skills (requirements K2, T2): listed in the prompt, read_skill, skill__NAME commands through run_command's path.
  const skills = new WorkspaceSkills({ dataDir: deps.dataDir, home: deps.home ?? homedir() });
  let routines: RoutineScheduler | undefined;
  const commandServices: ToolServices = {
    ...(settings.commandTimeoutMs !== undefined ? { defaultCommandTimeoutMs: settings.commandTimeoutMs } : {}),
    ...(settings.maxCommandTimeoutMs !== undefined ? { maxCommandTimeoutMs: settings.maxCommandTimeoutMs } : {}),
    ...(settings.commandEnv ? { commandEnv: settings.commandEnv } : {}),
    webSearcher: webSearcherFromSettings(settings.webSearch, env, clock, logger),
    ...(settings.webFetch ? { webFetch: settings.webFetch } : {}),
    providers: providerConfigurator(deps.dataDir),
    calendar: { calendars: settings.calendars ?? [], timezone: userTimeZone(settings, env), env },
    // The scheduler needs the session manager, built below; the tools reach it through this.
    routines: {
      create: (input, sessionId, by) => routines!.create(input, sessionId, by),
      list: () => routines!.list(),
      cancel: (id, by) => routines!.cancel(id, by),
    } satisfies RoutineHost,
  };
  const limits: Partial<TurnLimits> = {
    ...(settings.maxIterations !== undefined ? { maxIterations: settings.maxIterations } : {}),
    ...(settings.toolTimeoutMs !== undefined ? { toolTimeoutMs: settings.toolTimeoutMs } : {}),
    ...deps.limits,
  };

  sessions = new SessionManager({
    dataDir: deps.dataDir,
    home: deps.home ?? homedir(),
    defaultCwd: deps.defaultCwd ?? process.cwd(),
    // A default set from the chat (configure_provider, in config.json) is the freshest choice.
    defaultModel: () => configuredDefaultModel(deps.dataDir) ?? deps.defaultModel ?? env.TANDEM_MODEL ?? DEFAULT_MODEL,
    engine,
    modelFactory,
    checkModel: (spec) => void modelInfo(spec, config),
    modelWarnings: (spec) => modelWarnings(spec, config, env),
    toolsFactory: deps.toolsFactory ?? (() => [...builtinTools(), ...memoryTools]),
    runnerFactory:
      deps.runnerFactory ??
      ((session) => {
        session.sandbox = osSandbox.describe();
        return new PtyCommandRunner({ logDir: session.commandLogDir, clock, sandbox: osSandbox.wrapperFor(() => session.writableRoots()) });
      }),
    gateFactory: deps.gateFactory ?? guards?.gateFactory,
    servicesFactory: (session) => {
      const jobs = new SessionJobs({
        sessionId: session.id,
        logDir: join(session.dir, 'jobs'),
        emit: (body) => session.emit(body),
        clock,
        sandbox: osSandbox.wrapperFor(() => session.writableRoots()),
      });
      session.onClose(() => jobs.stopAll());
      const messaging = whatsappBridge(mcp, settings.whatsapp?.mcpServer, session.meta.cwd);
      return { jobs, messaging, ...commandServices, ...deps.servicesFactory?.(session) };
    },
    clock,
    logger,
    limits: Object.keys(limits).length > 0 ? limits : undefined,
    extendTurn: async (session, options) => {
      const extended = await mcp.extendTurn(session, skills.extendTurn(session, await extras(session, options)));
      return deps.extendTurn ? deps.extendTurn(session, extended) : extended;
    },
    hooks: composeHooks(guards, deps.hooks),
    broadcast: (sessionId, event) => io.to(sessionRoom(sessionId)).emit(SESSION_EVENT, event),
    onDeleted: (sessionId) => io.in(sessionRoom(sessionId)).socketsLeave(sessionRoom(sessionId)),
  });
  const manager = sessions;
  routines = new RoutineScheduler({
    store: new RoutineStore(deps.dataDir),
    clock,
    sessions: manager,
    graceMs: settings.routines?.missedRunGraceMs ?? 60 * 60_000,
    defaultTimezone: userTimeZone(settings, env),
    logger,
  });
  const scheduler = routines;
  const ready = (async () => {
    await guards?.open();
    await manager.loadAll();
    await scheduler.start();
  })();
  ready.catch(() => undefined);

  const handlers: HandlerMap = {
    ...sessionHandlers(manager),
    ...serverHandlers({ sessions: manager, env, providersConfig: currentProvidersConfig, clock, startedAtMs, sandbox: () => osSandbox.describe() }),
    ...turnHandlers(manager),
    ...jobHandlers(manager),
    ...sandboxHandlers(manager),
    ...modelHandlers(() => engine.listModels()),
    ...contextHandlers(manager, contexts),
    ...memoryHandlers({ sessions: manager, memories, dataDir: deps.dataDir, resolve }),
    ...mcpHandlers(mcp, manager, defaultCwd),
    ...skillsHandlers(skills, manager, defaultCwd),
    ...routineHandlers(scheduler),
    ...guards?.handlers(),
    ...deps.handlers,
  };
  const access = {
    requireSession: (id: string) => void manager.require(id),
    isDriver: (id: string, socketId: string) => manager.get(id)?.presence.roleOf(socketId) === 'driver',
  };
  const limiterFactory = deps.commandLimiterFactory ?? (guards ? () => guards.commandLimiterFactory() : undefined);

  io.use(authenticate(deps.tokens));
  io.on('connection', (socket) => {
    const client = socket.data as ClientIdentity;
    logger.info({ socketId: socket.id, name: client.name, token: client.tokenKind }, 'client connected');
    bindCommands(socket, handlers, access, logger, limiterFactory?.(socket));
    socket.on('disconnect', (reason) => {
      logger.info({ socketId: socket.id, reason }, 'client disconnected');
      for (const session of manager.all()) session.detachClient(socket.id);
    });
  });

  let closing: Promise<void> | undefined;
  return {
    httpServer,
    io,
    sessions: manager,
    ready,
    async listen(port, host = '127.0.0.1') {
      await ready;
      await new Promise<void>((resolve, reject) => {
        httpServer.once('error', reject);
        httpServer.listen(port, host, () => {
          httpServer.off('error', reject);
          resolve();
        });
      });
      const address = httpServer.address() as AddressInfo;
      const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      return { url: `http://${shownHost}:${address.port}` };
    },
    close() {
      closing ??= (async () => {
        await ready.catch(() => undefined);
        await scheduler.stop();
        await manager.closeAll(deps.shutdownGraceMs);
        await mcp.close();
        await guards?.close();
        io.disconnectSockets(true);
        await new Promise<void>((resolve) => io.close(() => resolve()));
        if (httpServer.listening) await new Promise<void>((resolve) => httpServer.close(() => resolve()));
      })();
      return closing;
    },
  };
}

function loadSettings(dataDir: string, logger: Logger): ServerSettings {
  const { settings, warnings } = loadServerSettings(dataDir);
  for (const warning of warnings) logger.warn(warning);
  return settings;
}

/** config.json's limits, then whatever the embedder passed in `deps.guards`. */
function guardsOptions(deps: ApplicationDeps, settings: ServerSettings, clock: Clock, logger: Logger): GuardsHostOptions {
  const tuned = deps.guards === 'off' ? {} : (deps.guards ?? {});
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

/** The guards' audit hook first, then the embedder's hooks. */
function composeHooks(guards: DeferredGuards | undefined, hooks: SessionHooks = {}): SessionHooks {
  if (!guards) return hooks;
  return {
    onEvent(session, event) {
      guards.onEvent(session, event);
      hooks.onEvent?.(session, event);
    },
    ...(hooks.onToolResult ? { onToolResult: hooks.onToolResult } : {}),
  };
}
