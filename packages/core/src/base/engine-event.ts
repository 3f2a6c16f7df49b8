import type { EventBody } from '@tandem/shared';

/** What the loop yields: session events before the host stamps `sessionId`, `seq` and `ts`. */
export type EngineEvent = EventBody;
