import type { SessionManager } from '../sessions/session-manager.js';
import type { ShareService } from '../shares/share-service.js';
import { CommandError } from './command-error.js';
import type { HandlerMap } from './dispatch.js';

/** share:create, share:list, share:revoke (control token), and client:whoami (anyone, about itself). */
export function shareHandlers(shares: ShareService, sessions: SessionManager): HandlerMap {
  return {
    'share:create': async ({ sessionId, name, role, expiresInSec }, { client }) => {
      sessions.require(sessionId);
      return shares.create({ sessionId, name, role, expiresInSec, createdBy: client.name });
    },

    'share:list': async ({ sessionId }) => ({ shares: await shares.list(sessionId) }),

    'share:revoke': async ({ id }, { client }) => {
      const share = await shares.revoke(id, client.name);
      if (!share) throw new CommandError('not_found', `no share has id ${JSON.stringify(id)}; \`tandem share ls\` lists them`);
      return { share };
    },

    'client:whoami': (_payload, { client }) => {
      const { share } = client;
      if (!share) return { kind: client.tokenKind, name: client.name };
      return {
        kind: client.tokenKind,
        name: client.name,
        share: { id: share.id, sessionId: share.sessionId, role: share.role, rights: [...share.rights], expiresAt: share.expiresAt },
      };
    },
  };
}
