// What a share may be, as plain values without zod: `tandem`'s command line reads them as it
// starts (option help, `--expires` checks), before it loads any schema. shares.ts builds the
// schemas from them and re-exports them.

/** The roles a share gives: watch; watch and answer permission requests; also send messages and stop turns. */
export const SHARE_ROLES = ['viewer', 'approver', 'driver'] as const;

/** How long a share lasts when `expiresInSec` is not given: 24 hours. */
export const DEFAULT_SHARE_SECONDS = 24 * 60 * 60;
/** The longest a share may last: 30 days. */
export const MAX_SHARE_SECONDS = 30 * 24 * 60 * 60;
