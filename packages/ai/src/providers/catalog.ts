import type { ModelInfo } from '@tandem/shared';
import { BUILTIN_CATALOG } from './catalog-data.js';
import { DEFAULT_MODEL_LIMITS, type CatalogEntry } from './catalog-entry.js';
import type { ProvidersConfig } from './config.js';
import { ModelSpecError, parseModelSpec } from './model-spec.js';
import { findProvider, providerNames } from './registry.js';
import { customModelEntries, customProtocol } from './custom-providers.js';

export interface ResolvedModel {
  entry: CatalogEntry;
  /** False when the catalog did not know the model and default limits were assumed. */
  known: boolean;
}

/**
 * The catalog as this server sees it: built-in entries, then config.json `models` (which add
 * models or replace one with the same id). The single source of truth for limits and chains.
 */
export class Catalog {
  private readonly entries = new Map<string, CatalogEntry>();
  /** Specs resolved before (a model id is asked for on every step of a turn); bounded. */
  private readonly resolved = new Map<string, ResolvedModel>();

  constructor(private readonly config: ProvidersConfig = {}) {
    for (const entry of BUILTIN_CATALOG) this.entries.set(entry.id, entry);
    for (const entry of customModelEntries(config.providers)) this.entries.set(entry.id, entry);
    for (const entry of config.models ?? []) this.entries.set(entry.id, entry);
  }

  get(id: string): CatalogEntry | undefined {
    return this.entries.get(id);
  }

  all(): CatalogEntry[] {
    return [...this.entries.values()];
  }

  visible(): CatalogEntry[] {
    return this.all().filter((e) => !e.hidden);
  }

  /** Providers a model id may name: the built-in table plus config providers given a base URL. */
  knownProviders(): string[] {
    const custom = Object.entries(this.config.providers ?? {})
      .filter(([name, s]) => !findProvider(name) && s.baseURL)
      .map(([name]) => name);
    return [...providerNames(), ...custom];
  }

  /**
   * Finds a model by `provider/model`. A model the catalog does not know is accepted for a known
   * provider with default limits; an unknown provider is refused with the list of known ones.
   */
  resolve(spec: string): ResolvedModel {
    let found = this.resolved.get(spec);
    if (!found) {
      found = this.resolveAnew(spec);
      if (this.resolved.size >= RESOLVED_KEPT) this.resolved.clear();
      this.resolved.set(spec, found);
    }
    return found;
  }

  private resolveAnew(spec: string): ResolvedModel {
    const { provider, model } = parseModelSpec(spec);
    const id = `${provider}/${model}`;
    const entry = this.entries.get(id);
    if (entry) return { entry, known: true };
    const known = this.knownProviders();
    if (!known.includes(provider)) {
      throw new ModelSpecError(`unknown provider "${provider}" in "${spec}"; known providers: ${known.join(', ')}`);
    }
    const protocol = findProvider(provider)?.protocol ?? customProtocol(provider, this.config.providers) ?? 'openai-chat';
    return {
      known: false,
      entry: {
        id,
        label: model,
        provider,
        protocol,
        contextWindow: DEFAULT_MODEL_LIMITS.contextWindow,
        maxOutput: DEFAULT_MODEL_LIMITS.maxOutput,
        tools: true,
        tier: 'unknown',
        description: 'not in the catalog; default limits assumed',
      },
    };
  }
}

export function toModelInfo(entry: CatalogEntry): ModelInfo {
  return {
    id: entry.id,
    label: entry.label,
    provider: entry.provider,
    contextWindow: entry.contextWindow,
    maxOutput: entry.maxOutput,
    tools: entry.tools,
    tier: entry.tier,
    description: entry.description,
  };
}

/** The models a user may pick (hidden ones left out), in catalog order. */
export function listModels(config?: ProvidersConfig): ModelInfo[] {
  return catalogFor(config).visible().map(toModelInfo);
}

/** How many resolved specs a catalog keeps (any client may name a model; a few are in use). */
const RESOLVED_KEPT = 256;

const catalogs = new WeakMap<ProvidersConfig, Catalog>();
const NO_CONFIG: ProvidersConfig = {};

/**
 * The catalog for a providers config, made once per config object. A config is not changed once
 * made (a change to config.json or a stored key makes a new one), so its catalog stays right;
 * asking for a model's limits on every step of a turn no longer builds the whole table again.
 */
export function catalogFor(config: ProvidersConfig = NO_CONFIG): Catalog {
  let catalog = catalogs.get(config);
  if (!catalog) {
    catalog = new Catalog(config);
    catalogs.set(config, catalog);
  }
  return catalog;
}
