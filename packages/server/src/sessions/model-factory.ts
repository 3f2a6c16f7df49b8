import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { estimateTextTokens } from '@tandem/core';
import { Governor, parseProvidersConfig, resolveModelClient, type Clock, type ProvidersConfig } from '@tandem/ai';
import type { ModelFactory } from './engine.js';

/**
 * The providers part of `<dataDir>/config.json`. A missing file is an empty config; a broken
 * one is logged and ignored, so a typo never keeps the server from starting.
 */
export function loadProvidersConfig(dataDir: string, logger: Logger): ProvidersConfig {
  const path = join(dataDir, 'config.json');
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return {};
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    logger.warn({ path }, `config.json is not valid JSON (${(err as Error).message}); using defaults`);
    return {};
  }
  const parsed = parseProvidersConfig(raw);
  if (!parsed.ok) {
    logger.warn({ path }, `${parsed.message}; using defaults`);
    return {};
  }
  return parsed.config;
}

/**
 * `resolveModelClient` with the server's environment, config, one governor shared by every
 * session, and core's CJK-aware token estimate for sizing requests (requirements C2). `config` may be
 * a function: it is then asked each time a client is built (a new session, a model switch),
 * so edits to config.json's providers reach new clients without a restart.
 */
export function defaultModelFactory(
  env: NodeJS.ProcessEnv,
  config: ProvidersConfig | (() => ProvidersConfig),
  clock: Clock,
  governor = new Governor({ clock }),
): ModelFactory {
  return (spec, { onEvent }) =>
    resolveModelClient(spec, { env, config: typeof config === 'function' ? config() : config, clock, onEvent, governor, estimateTokens: estimateTextTokens });
}
