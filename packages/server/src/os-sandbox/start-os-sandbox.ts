import type { Logger } from 'pino';
import { OsSandbox, type OsSandboxOptions } from './os-sandbox.js';

/** Probes the OS sandbox once at start and says plainly in server.log what commands run in. */
export function startOsSandbox(options: OsSandboxOptions & { logger: Logger }): OsSandbox {
  const { logger, ...rest } = options;
  const sandbox = new OsSandbox(rest);
  const state = sandbox.describe();
  if (sandbox.active) logger.info({ sandbox: state }, `commands run in the OS sandbox: ${state}`);
  else logger.warn({ sandbox: state }, `OS sandbox ${state}; commands are guarded by the blacklist and permissions only`);
  return sandbox;
}
