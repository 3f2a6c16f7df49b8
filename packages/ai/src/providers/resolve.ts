import type { EventBody as EngineEvent } from '@tandem/shared';
import { systemClock, type Clock } from '../ports/clock.js';
import type { AdapterFactory } from './adapter-factory.js';
import { catalogFor } from './catalog.js';
import type { CatalogEntry } from './catalog-entry.js';
import { DEFAULT_MEMORY_MODELS } from './catalog-data.js';
import type { ProvidersConfig } from './config.js';
import { keyHint, missingKey, providerAccess } from './credentials.js';
import { Governor } from './governor.js';
import { discoverContextWindow } from './local-context.js';
import { findProvider } from './registry.js';
import type { TokenEstimator } from './request-budget.js';
import { ResilientModelClient } from './resilient-client.js';
import { sdkAdapterFactory } from './sdk-adapters.js';
import type { StallLimits } from './stall-guard.js';

export interface ResolveOptions {
  env: NodeJS.ProcessEnv;
  config?: ProvidersConfig;
  clock?: Clock;
  onEvent?: (e: EngineEvent) => void;
  /** The server's one governor, shared by every session. Without it the client gets its own. */
  governor?: Governor;
  /** A better token estimate than chars/4 (e.g. the CJK-aware one in context/). */
  estimateTokens?: TokenEstimator;
  /** Try these models in order instead of following catalog `fallback` links. */
  chain?: readonly string[];
  /** Builds the SDK adapters; tests and hosts may pass their own. */
  createAdapter?: AdapterFactory;
  /** How long a silent reply is tolerated (default 5 min to the first event and between events). */
  stallLimits?: StallLimits;
}

/**
 * The ModelClient for `provider/model`: the resilient chain client (retries, key rotation,
 * fallback across providers and protocols, the shared governor). Throws ModelSpecError for a
 * malformed id or an unknown provider; a model the catalog does not know is accepted with
 * default limits (see `modelWarnings`).
 */
export function resolveModelClient(spec: string, options: ResolveOptions): ResilientModelClient {
  const config = options.config ?? {};
  const catalog = catalogFor(options.config);
  const { entry } = catalog.resolve(spec);
  const clock = options.clock ?? options.governor?.clock ?? systemClock;
  return new ResilientModelClient({
    primary: entry,
    catalog,
    env: options.env,
    config,
    clock,
    governor: options.governor ?? new Governor({ clock }),
    createAdapter: options.createAdapter ?? sdkAdapterFactory,
    ...(options.onEvent ? { onEvent: options.onEvent } : {}),
    ...(options.estimateTokens ? { estimateTokens: options.estimateTokens } : {}),
    ...(options.chain ? { chain: options.chain } : {}),
    ...(options.stallLimits ? { stallLimits: options.stallLimits } : {}),
  });
}

/**
 * Warnings to show when a session starts on `spec` (requirements M1): an unknown model running on
 * default limits, a model that cannot call tools, a provider without a key. Throws
 * ModelSpecError like `resolveModelClient`.
 */
export function modelWarnings(spec: string, config?: ProvidersConfig, env?: NodeJS.ProcessEnv): EngineEvent[] {
  const { entry, known } = catalogFor(config).resolve(spec);
  const out: EngineEvent[] = [];
  const warn = (message: string) => out.push({ type: 'model_warning', model: entry.id, message });
  if (!known) {
    const local = findProvider(entry.provider)?.local ? ' until the local server reports its own window' : '';
    warn(
      `unknown model ${entry.id}: not in the catalog, using default limits: ${Math.round(entry.contextWindow / 1000)}k context, ${Math.round(entry.maxOutput / 1000)}k output${local}`,
    );
  }
  if (!entry.tools) {
    warn(`${entry.label} cannot call tools: it can chat, but cannot read files, edit or run commands; pick another model for agent work`);
  }
  if (env) {
    const access = providerAccess(entry, env, config);
    if (missingKey(access)) warn(`no API key for ${entry.provider}: ${keyHint(entry.provider, config)}`);
  }
  return out;
}

/** The catalog entry for `spec` (default limits for an unknown model). Throws ModelSpecError. */
export function modelInfo(spec: string, config?: ProvidersConfig): CatalogEntry {
  return catalogFor(config).resolve(spec).entry;
}

/**
 * Like `modelInfo`, but for Ollama and llama.cpp asks the running server for its real context
 * window (short timeout, cached); falls back to the catalog's figure.
 */
export async function resolveModelInfo(spec: string, env: NodeJS.ProcessEnv, config?: ProvidersConfig): Promise<CatalogEntry> {
  const entry = modelInfo(spec, config);
  const local = findProvider(entry.provider)?.local;
  if (!local) return entry;
  const window = await discoverContextWindow(local, providerAccess(entry, env, config).baseURL, entry.id.slice(entry.provider.length + 1));
  return window ? { ...entry, contextWindow: window, maxOutput: Math.min(entry.maxOutput, window) } : entry;
}

/**
 * The memory consolidation / compaction chain (requirements H2): TANDEM_MEMORY_MODELS, else
 * config.json `memoryModels`, else the hidden cheap models of the catalog.
 */
export function memoryModelChain(env: NodeJS.ProcessEnv, config?: ProvidersConfig): string[] {
  const fromEnv = (env.TANDEM_MEMORY_MODELS ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (fromEnv.length > 0) return fromEnv;
  if (config?.memoryModels && config.memoryModels.length > 0) return [...config.memoryModels];
  return [...DEFAULT_MEMORY_MODELS];
}

/**
 * The memory chain as separate clients, one per model, each pinned to its model (its own
 * retries and key rotation, but no transport fallback), for a business layer that walks the
 * chain itself (requirements H3). Ids that cannot be resolved are left out and reported in `skipped`.
 */
export function resolveMemoryChain(options: ResolveOptions): {
  chain: Array<{ id: string; client: ResilientModelClient }>;
  skipped: string[];
} {
  const ids = options.chain ?? memoryModelChain(options.env, options.config);
  const catalog = catalogFor(options.config);
  const chain: Array<{ id: string; client: ResilientModelClient }> = [];
  const skipped: string[] = [];
  for (const id of ids) {
    try {
      const { entry } = catalog.resolve(id);
      chain.push({ id: entry.id, client: resolveModelClient(entry.id, { ...options, chain: [entry.id] }) });
    } catch (err) {
      skipped.push(`${id}: ${(err as Error).message}`);
    }
  }
  return { chain, skipped };
}

/** A client for memory consolidation: the first model of the memory chain, then the rest in order. */
export function resolveMemoryClient(options: ResolveOptions): ResilientModelClient {
  const chain = options.chain ?? memoryModelChain(options.env, options.config);
  const catalog = catalogFor(options.config);
  const first = chain.find((id) => {
    try {
      catalog.resolve(id);
      return true;
    } catch {
      return false;
    }
  });
  return resolveModelClient(first ?? chain[0] ?? DEFAULT_MEMORY_MODELS[0]!, { ...options, chain });
}
