export { runTui, type TuiOptions } from './app.js';
export { TandemClient, RequestError, connect, describe as describeConnection, type ClientSignal, type ClientOptions } from './client.js';
export { chooseSession, lastUsed, mostRecent, type SessionChoice } from './session-choice.js';
export { initialState, reduce, reduceAll, type Action } from './state/reducer.js';
export type * from './state/types.js';
export { fetchSessionEvents, transcriptMarkdown, transcriptJson, exportFileName } from './export/index.js';
export { expandCustomCommand, splitArguments } from './input/custom-command.js';
