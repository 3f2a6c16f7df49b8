import type { PermissionStore } from '../permissions/permission-store.js';
import type { SessionGuards } from '../permissions/session-guards.js';
import { CommandError } from './command-error.js';
import type { HandlerMap } from './dispatch.js';

/**
 * `permission:respond` (attached drivers; the first answer wins, `permission_resolved` names who
 * answered), `permissions:list` and `permissions:revoke` (control token; the stored rules).
 */
export function permissionHandlers(store: PermissionStore, guardsFor: (sessionId: string) => SessionGuards | undefined): HandlerMap {
  return {
    'permission:respond': ({ sessionId, requestId, decision, scope }, { client }) => {
      const guards = guardsFor(sessionId);
      if (!guards) throw new CommandError('not_found', `session ${sessionId} has no open permission requests (it is not running here)`);
      const result = guards.broker.respond(requestId, decision, scope, client.name);
      if (!result.ok) throw new CommandError(result.error, result.message);
      return {};
    },
    'permissions:list': async ({ workspace }) => ({ permissions: await store.list(workspace) }),
    'permissions:revoke': async ({ id }) => {
      const result = await store.revoke(id);
      if (!result.ok) throw new CommandError('not_found', result.message);
      return {};
    },
  };
}
