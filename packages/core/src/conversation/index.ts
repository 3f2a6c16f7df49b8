export * from './conversation-builder.js';
export type { ConversationSnapshot } from './conversation-snapshot.js';
