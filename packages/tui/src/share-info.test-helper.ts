import type { ShareInfo } from '@tandem/shared';

/** Carla's approver share of session s1, made at 11:00 on 2026-01-01; a test gives what it looks at (expiry, creator, connections). */
export function carlaShare(extra: Pick<ShareInfo, 'expiresAt' | 'connected'> & Partial<ShareInfo>): ShareInfo {
  return { id: 'sh_1', sessionId: 's1', name: 'carla', role: 'approver', rights: ['view', 'approve'], createdAt: '2026-01-01T11:00:00.000Z', ...extra };
}
