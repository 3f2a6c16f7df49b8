/**
 * The TUI's view state as a browser-safe entry (`@tandem/tui/state`): the pure reducer, its
 * types and the small pure helpers the transcript is drawn with. Nothing here imports blessed
 * or anything node-only, so the web viewer bundles the same fold the terminal uses.
 */
export { initialState, reduce, reduceAll, excerpt, runningCommand, MAX_ITEMS, RESULT_LINES, type Action } from './reducer.js';
export { formatDuration } from './format-duration.js';
export { noticeFor } from './event-notices.js';
export { outputTail, MAX_OUTPUT_LINES, type OutputBuffer } from './output-buffer.js';
export type * from './types.js';
export { COMMANDER, mentionNames, runningAgents, shownItem } from './agents.js';
