/** Event types that end a turn. */
export const TURN_END_TYPES: ReadonlySet<string> = new Set(['turn_done', 'turn_cancelled', 'turn_interrupted']);

export const SHUTDOWN_REASON = 'the server stopped while this turn was running';
