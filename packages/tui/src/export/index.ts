export { fetchSessionEvents } from './session-events.js';
export { transcriptMarkdown, fence } from './transcript-markdown.js';
export { transcriptJson } from './transcript-json.js';
export { exportFileName } from './export-file.js';
