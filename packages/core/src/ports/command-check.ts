/** A command line refused before it runs says why; one allowed says nothing. */
export type CommandVerdict = { blocked: false } | { blocked: true; message: string };

/**
 * The host's check of a command line before anything runs it (requirements P3). The engine runs
 * commands of its own in two places, an external agent's command and a skill's command, and asks
 * this check at both; the server passes the coding tools' `checkCommandBlacklist`, the same
 * check its gate runs first.
 */
export type CommandCheck = (command: string, where: { workspace?: string; home?: string }) => CommandVerdict;
