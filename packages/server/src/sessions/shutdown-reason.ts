export const SHUTDOWN_REASON = 'the server stopped while this turn was running';
