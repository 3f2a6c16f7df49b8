import type { ModelInfo } from '@tandem/shared';
import { listModels } from './catalog.js';
import type { ProvidersConfig } from './config.js';
import { providerAccess } from './credentials.js';
import { modelInfo } from './resolve.js';

export interface ModelsCommandOptions {
  config?: ProvidersConfig;
  /** When given, a column says whether the provider is usable (has a key or needs none). */
  env?: NodeJS.ProcessEnv;
  /** Only models of this provider. */
  provider?: string;
  write?: (text: string) => void;
}

function tokens(n: number): string {
  if (n >= 1_000_000) return `${(n / 1_000_000).toFixed(1).replace(/\.0$/, '')}M`;
  return `${Math.round(n / 1000)}k`;
}

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, col) => Math.max(...rows.map((r) => r[col]!.length)));
  return rows.map((r) => r.map((cell, col) => cell.padEnd(widths[col]!)).join('  ').trimEnd()).join('\n');
}

/** Formats the visible models as a plain text table (`tandem models`). */
export function formatModelsTable(models: readonly ModelInfo[], ready?: (m: ModelInfo) => boolean): string {
  const head = ['MODEL', 'TIER', 'CONTEXT', 'OUTPUT', 'TOOLS', ...(ready ? ['KEY'] : []), 'DESCRIPTION'];
  const rows = models.map((m) => [
    m.id,
    m.tier,
    tokens(m.contextWindow),
    tokens(m.maxOutput),
    m.tools ? 'yes' : 'no',
    ...(ready ? [ready(m) ? 'ok' : 'missing'] : []),
    m.description,
  ]);
  return table([head, ...rows]);
}

/** `tandem models`: prints the visible catalog; returns the exit code. */
export function runModelsCommand(options: ModelsCommandOptions = {}): number {
  const write = options.write ?? ((text: string) => process.stdout.write(text));
  const models = listModels(options.config).filter((m) => !options.provider || m.provider === options.provider);
  if (models.length === 0) {
    write(`no models for provider "${options.provider}"\n`);
    return 1;
  }
  const env = options.env;
  const ready = env
    ? (m: ModelInfo) => {
        const access = providerAccess(modelInfo(m.id, options.config), env, options.config);
        return access.keyless || access.keys.length > 0;
      }
    : undefined;
  write(`${formatModelsTable(models, ready)}\n`);
  return 0;
}
