/** How a turn ended, before it is turned into its terminal events. */
export type TurnEnd =
  | { kind: 'answered' }
  | { kind: 'cancelled' }
  | { kind: 'error'; outcome: 'error' | 'max_iterations' | 'permission_timeout' | 'loop_stopped'; code: string; message: string };

export const CANCEL_NOTE = 'Turn cancelled; the conversation was rolled back to before the turn. Changes already made on disk stay.';

export const INTERRUPTED_OUTPUT = 'interrupted: the server stopped before this tool finished';

export const NOT_RUN_OUTPUT = 'Not run: the turn stopped before this call.';
