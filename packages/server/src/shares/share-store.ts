import type { NewShare, ShareRecord } from './share-record.js';

/**
 * Where a server keeps its shares: a file in the data directory on a single node, Redis in a
 * cluster (every node checks every share's token). Only token hashes are stored.
 */
export interface ShareStore {
  /** Stores a new share; the token is returned here and nowhere else. */
  create(input: NewShare): Promise<{ record: ShareRecord; token: string }>;
  /** Shares still worth listing (active, or ended within the last 7 days), oldest first. */
  list(sessionId?: string): Promise<ShareRecord[]>;
  get(id: string): Promise<ShareRecord | undefined>;
  /** The share whose token this is, whatever its state (the caller checks it is active). */
  findByToken(token: string): Promise<ShareRecord | undefined>;
  /** Marks a share revoked (already ended ones are returned as they are); undefined when unknown. */
  revoke(id: string, by: string): Promise<ShareRecord | undefined>;
}
