import type { Logger } from 'pino';
import type { Socket } from 'socket.io';
import type { Clock } from '@tandem/ai';
import { SHARE_ROLE_RIGHTS, type ShareInfo } from '@tandem/shared';
import type { ClientIdentity, ShareGrant, ShareVerifier } from '../auth.js';
import type { AuditLog } from '../audit/audit-log.js';
import { recordShareAudit } from './share-audit.js';
import { looksLikeShareToken, shareInfo, shareState, type NewShare, type ShareRecord } from './share-record.js';
import type { ShareSockets } from './share-sockets.js';
import type { ShareStore } from './share-store.js';

export interface ShareServiceDeps {
  store: ShareStore;
  sockets: ShareSockets;
  clock: Clock;
  logger: Logger;
  /** Who created, used and revoked each share (absent when the guards are off). */
  audit?: AuditLog;
}

/**
 * Shares from creation to the end: the store (hashes only), the handshake's check, the sockets
 * using each share, revocation on every node, and an audit record for each step.
 */
export class ShareService {
  constructor(private readonly deps: ShareServiceDeps) {}

  async create(input: NewShare): Promise<{ share: ShareInfo; token: string }> {
    const { record, token } = await this.deps.store.create(input);
    recordShareAudit(this.deps.audit, 'created', record, input.createdBy ?? 'unknown');
    this.deps.logger.info({ shareId: record.id, sessionId: record.sessionId, role: record.role, name: record.name }, 'share created');
    return { share: shareInfo(record, 0), token };
  }

  async list(sessionId?: string): Promise<ShareInfo[]> {
    const records = await this.deps.store.list(sessionId);
    const now = this.deps.clock.now();
    const active = records.filter((r) => shareState(r, now) === 'active').map((r) => r.id);
    const counts = await this.deps.sockets.connectedCounts(active);
    return records.map((r) => shareInfo(r, counts.get(r.id) ?? 0));
  }

  async get(id: string): Promise<ShareRecord | undefined> {
    return this.deps.store.get(id);
  }

  /** Ends a share now: refused from here on, its sockets closed on every node. */
  async revoke(id: string, by: string): Promise<ShareInfo | undefined> {
    const before = await this.deps.store.get(id);
    const record = await this.deps.store.revoke(id, by);
    if (!record) return undefined;
    if (before && shareState(before, this.deps.clock.now()) === 'active') {
      recordShareAudit(this.deps.audit, 'revoked', record, by);
      this.deps.logger.info({ shareId: id, by }, 'share revoked');
    }
    // Ended already or not: nothing may keep using it.
    this.deps.sockets.endEverywhere({ shareId: id, reason: 'revoked', by });
    return shareInfo(record, 0);
  }

  /** A deleted session's shares are revoked with it. */
  async endSession(sessionId: string, by: string): Promise<void> {
    const now = this.deps.clock.now();
    for (const record of await this.deps.store.list(sessionId)) {
      if (shareState(record, now) === 'active') await this.revoke(record.id, by);
    }
  }

  /** The handshake's check of a share token: active shares only. */
  readonly verify: ShareVerifier = async (token) => {
    if (!looksLikeShareToken(token)) return undefined;
    let record: ShareRecord | undefined;
    try {
      record = await this.deps.store.findByToken(token);
    } catch (err) {
      this.deps.logger.warn({ err: err instanceof Error ? err.message : String(err) }, 'cannot check a share token');
      throw new Error('unavailable: the server cannot check share tokens right now; try again in a moment');
    }
    if (!record || shareState(record, this.deps.clock.now()) !== 'active') return undefined;
    const grant: ShareGrant = {
      id: record.id,
      sessionId: record.sessionId,
      role: record.role,
      rights: [...SHARE_ROLE_RIGHTS[record.role]],
      expiresAt: record.expiresAt,
    };
    return { name: record.name, grant };
  };

  /** A socket connected with a share: tracked for revocation and expiry, its use audited. */
  connected(socket: Socket): void {
    const client = socket.data as ClientIdentity;
    if (!client.share) return;
    this.deps.sockets.track(socket);
    recordShareAudit(
      this.deps.audit,
      'connected',
      { id: client.share.id, sessionId: client.share.sessionId, role: client.share.role, name: client.name },
      client.name,
      {
        address: socket.handshake.address,
      },
    );
  }
}
