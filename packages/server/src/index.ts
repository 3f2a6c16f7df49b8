export { createApplication, DEFAULT_MODEL, type Application, type ApplicationDeps, type ApplicationSeams } from './app.js';
export type { Tokens, TokenKind, ClientIdentity } from './auth.js';
export { runServe, parseServeArgs, DEFAULT_HOST, DEFAULT_PORT, type ServeOptions, type RunningServer } from './serve/run-serve.js';
export { loadTokens, TOKEN_FILE, VIEW_TOKEN_FILE } from './serve/tokens.js';
export { defaultDataDir } from './serve/data-dir.js';
export { SERVER_NODE_FLAGS, serverNodeFlags } from './serve/node-flags.js';
// Where a workspace's memory lives in the data dir (`tandem memory edit` opens its MEMORY.md), and
// the one atomic file writer (`tandem memory export --out`).
export { canonicalWorkspace, ensureMemoryDir, memoryDirFor, memoryFilePath, writeFileAtomic } from '@tandem/core';
export { readServerInfo, type ServerInfo } from './serve/server-info.js';
export { providerEnvDigest, providerEnvNames, providersWithKey } from './serve/provider-env.js';
export { SERVER_VERSION } from './handlers/server-handlers.js';
export { PtyCommandRunner, type PtyRunnerOptions } from './pty/pty-runner.js';
export { OsSandbox, startOsSandbox, probeBwrap, type CommandWrapper, type OsSandboxSettings } from './os-sandbox/index.js';
export { CommandError } from './handlers/command-error.js';
export type { HandlerMap, Handler, CommandContext } from './handlers/dispatch.js';
export type { Session, SessionHooks, SessionRunner } from './sessions/session.js';
export type { HostEnvironment, SessionHost, TurnStep } from './sessions/session-environment.js';
export { ConflictError, DomainError, ForbiddenError, InvalidInputError, NotFoundError } from './errors/domain-errors.js';
export type { SessionEngine, ModelFactory, GrantablePaths } from './sessions/engine.js';
// Admin commands for the cli (`tandem permissions …`, `tandem audit …`), built beside the data they read.
export { runPermissionsCommand, type PermissionsCommandOptions } from './permissions/index.js';
export { runAuditCommand, type AuditCommandOptions } from './audit/index.js';
// The server's limits in <dataDir>/config.json (permission timeout, rate limits, loop and command limits).
export { loadServerSettings, parseServerSettings, type ServerSettings, type LoadedSettings } from './config/server-settings.js';
// MCP servers (tandem mcp add|list|remove, and hosts that call a server directly) and the secret store.
export {
  McpHub,
  addUserServer,
  addUserServerJson,
  removeUserServer,
  loadMcpConfig,
  mcpToolName,
  PROJECT_MCP_FILE,
  USER_MCP_FILE,
  type McpServerStatus,
  type AddServerInput,
} from './mcp/index.js';
export { SecretStore, SECRET_KEY_FILE, SECRET_VALUES_FILE } from './secrets/index.js';
// External packages (tandem packages add|ls|update|rm).
export { ExternalPackages, PackageRegistry, type PackageChange, type PackageListing, type PackageEntry } from './packages/index.js';
// Self-evolution: an agent's reflections as recorded in the data directory (tandem agents evolution NAME).
export { evolutionRecords } from './evolution/evolution-records.js';
// Skills: every skill folder of a workspace with its root and status (tandem skills).
export { WorkspaceSkills } from './skills/workspace-skills.js';
// Agents: the definitions of a workspace with their file and status (tandem agents).
export { agentRoots, discoverAgents, formatAgentFileError, type AgentEntry, type AgentFileError } from '@tandem/core';
export { parseProvidersConfig } from '@tandem/ai';
// Cluster: nodes sharing sessions through Redis (tandem serve --redis URL).
// Types only for the cluster node: its module brings Redis in, loaded when a server runs with --redis.
export type { ClusterNode, RedisUnreachableError } from './cluster/index.js';
export { DEFAULT_LEASE_MS, type ClusterOptions } from './cluster/cluster-options.js';
export { NODE_OFFLINE_CODE } from './cluster/offline-watch.js';
// Checkpoints (undo): the shadow repository per workspace and each session's turns (pnpm bench measures them).
export { Checkpoints, type CheckpointSettings } from './checkpoints/checkpoints.js';
export type { SessionCheckpoints, UndoResult } from './checkpoints/session-checkpoints.js';
