import type { CommandCheck } from '../ports/command-check.js';
import { ToolError, type ToolServices } from './define.js';

/** What any tool that runs a command needs of its host, the engine's own external agents included. */
export interface CommandServices {
  /** Extra environment for the commands tools run (config.json `commandEnv`). */
  commandEnv?: Record<string, string>;
  /** The check a command line passes before it runs (the coding tools' command blacklist). */
  commandCheck?: CommandCheck;
}

declare module './define.js' {
  interface ToolServices extends CommandServices {}
}

export function commandEnvOf(services: ToolServices): Record<string, string> {
  return services.commandEnv ?? {};
}

/** The host's command check; a host without one runs no command (fails closed). */
export function commandCheckOf(services: ToolServices): CommandCheck {
  if (!services.commandCheck) {
    throw new ToolError('this host has no command check (the command blacklist), so it runs no commands; give its tools `commandCheck`');
  }
  return services.commandCheck;
}
