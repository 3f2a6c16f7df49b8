import type { Redis } from 'ioredis';
import { systemClock, type Clock } from '@tandem/ai';
import { newShareRecord, ShareRecordSchema, shareEndedAt, shareTokenHash, worthKeeping, type NewShare, type ShareRecord } from '../shares/share-record.js';
import type { ShareStore } from '../shares/share-store.js';

export interface RedisShareKeys {
  /** Hash shareId → JSON record. */
  shares: string;
  /** Hash token hash → shareId. */
  shareTokens: string;
}

/**
 * A cluster's shares, in Redis: every node accepts every share's token, and a share created
 * through one node is listed and revoked through any. They last as long as Redis keeps its data.
 */
export class RedisShareStore implements ShareStore {
  constructor(
    private readonly redis: Redis,
    private readonly keys: RedisShareKeys,
    private readonly clock: Clock = systemClock,
  ) {}

  async create(input: NewShare): Promise<{ record: ShareRecord; token: string }> {
    const created = newShareRecord(input, this.clock.now());
    await this.redis
      .multi()
      .hset(this.keys.shares, created.record.id, JSON.stringify(created.record))
      .hset(this.keys.shareTokens, created.record.tokenHash, created.record.id)
      .exec();
    await this.prune();
    return created;
  }

  async list(sessionId?: string): Promise<ShareRecord[]> {
    const now = this.clock.now();
    const all = await this.readAll();
    return all
      .filter((r) => (sessionId === undefined || r.sessionId === sessionId) && worthKeeping(r, now))
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }

  async get(id: string): Promise<ShareRecord | undefined> {
    return parseRecord(await this.redis.hget(this.keys.shares, id));
  }

  async findByToken(token: string): Promise<ShareRecord | undefined> {
    const id = await this.redis.hget(this.keys.shareTokens, shareTokenHash(token));
    return id ? this.get(id) : undefined;
  }

  async revoke(id: string, by: string): Promise<ShareRecord | undefined> {
    const record = await this.get(id);
    if (!record || shareEndedAt(record, this.clock.now()) !== undefined) return record;
    const revoked: ShareRecord = { ...record, revokedAt: new Date(this.clock.now()).toISOString(), revokedBy: by };
    await this.redis.hset(this.keys.shares, id, JSON.stringify(revoked));
    return revoked;
  }

  private async readAll(): Promise<ShareRecord[]> {
    const raw = await this.redis.hgetall(this.keys.shares);
    return Object.values(raw)
      .map(parseRecord)
      .filter((r): r is ShareRecord => r !== undefined);
  }

  /** Forgets shares that ended more than 7 days ago (and their token entries). */
  private async prune(): Promise<void> {
    const now = this.clock.now();
    const stale = (await this.readAll()).filter((r) => !worthKeeping(r, now));
    if (stale.length === 0) return;
    await this.redis
      .multi()
      .hdel(this.keys.shares, ...stale.map((r) => r.id))
      .hdel(this.keys.shareTokens, ...stale.map((r) => r.tokenHash))
      .exec();
  }
}

function parseRecord(text: string | null | undefined): ShareRecord | undefined {
  if (!text) return undefined;
  try {
    const parsed = ShareRecordSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
