import { shareAttachLine, shareWebLink } from '@tandem/shared';
import { chooseSession, type TandemClient } from '@tandem/tui';
import { resolveConnection, type ConnectionArgs } from '../connection-args.js';
import { formatDuration } from '../share-duration.js';
import { formatCreatedShare, formatShareTable } from '../share-output.js';
import { pickSession } from '../session-pick.js';
import { workspaceDir } from '../workspace.js';
import type { CreateFlags } from './share.js';
import { withClient } from './with-client.js';

/** What `tandem share`, `tandem share ls` and `tandem share revoke` do (loaded when one runs). */

type Out = { out?: NodeJS.WritableStream };

export async function createShare(args: ConnectionArgs & CreateFlags & Out & { session?: string | undefined }): Promise<number> {
  const out = args.out ?? process.stdout;
  const { url: serverUrl } = await resolveConnection({ ...args, viewer: false });
  const base = args.baseUrl ? checkedBase(args.baseUrl) : serverUrl;
  const result = await withClient({ ...args, viewer: false }, 'share', async (client) => {
    const session = await sessionToShare(client, args);
    const created = await client.request('share:create', { sessionId: session.id, name: args.name, role: args.role, expiresInSec: args.expires });
    return { session, ...created };
  });
  const url = shareWebLink(base, result.session.id, result.token);
  const attach = shareAttachLine(base, result.session.id, result.token);
  if (args.json) {
    out.write(`${JSON.stringify({ share: result.share, token: result.token, url, attach }, null, 2)}\n`);
    return 0;
  }
  out.write(formatCreatedShare({ ...result, url, attach, duration: formatDuration(args.expires), notes: reachNotes(base, Boolean(args.baseUrl)) }));
  return 0;
}

/** The named session, else this folder's; never a new one (sharing an empty folder helps no one). */
async function sessionToShare(client: TandemClient, args: { session?: string | undefined; cwd?: string | undefined }) {
  if (args.session) return chooseSession(client, { sessionId: args.session });
  const cwd = workspaceDir(args.cwd);
  const { sessions } = await client.request('session:list', {});
  if (!sessions.some((s) => s.cwd === cwd)) {
    throw new Error(`no session for ${cwd} yet: open one with \`tandem\` first, or name one (tandem ls lists them)`);
  }
  return (await pickSession(client, { cwd, viewer: true })).session;
}

function checkedBase(value: string): string {
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http or https');
    return url.origin;
  } catch {
    throw new Error(`--base-url: expected an http:// or https:// address, got "${value}"`);
  }
}

/** What keeps the other person from reaching the link, said before they find out. */
function reachNotes(base: string, given: boolean): string[] {
  const { hostname: host, port } = new URL(base);
  const notes: string[] = [];
  if (!given && (host === '127.0.0.1' || host === 'localhost' || host === '[::1]')) {
    notes.push(
      `the server listens on this machine only, so the link works here alone. For someone elsewhere: an SSH tunnel (they run ssh -N -L ${port}:127.0.0.1:${port} you@this-host, then open the link), ` +
        'or `tandem serve --host 0.0.0.0 --tls-cert … --tls-key …` and --base-url with the address they reach',
    );
  }
  if (new URL(base).protocol === 'http:' && !(host === '127.0.0.1' || host === 'localhost' || host === '[::1]')) {
    notes.push('the link is plain http: across a network you do not trust, serve with --tls-cert/--tls-key or use an SSH tunnel');
  }
  return notes;
}

export async function listShares(args: ConnectionArgs & Out & { json?: boolean | undefined }): Promise<number> {
  const { shares } = await withClient({ ...args, viewer: false }, 'share ls', (client) => client.request('share:list', {}));
  const out = args.out ?? process.stdout;
  out.write(args.json ? `${JSON.stringify(shares, null, 2)}\n` : formatShareTable(shares));
  return 0;
}

export async function revokeShare(id: string, args: ConnectionArgs & Out): Promise<number> {
  const { share, closed } = await withClient({ ...args, viewer: false }, 'share revoke', async (client) => {
    const { shares } = await client.request('share:list', {});
    const matches = shares.filter((s) => s.id === id || s.id.startsWith(id));
    const found = matches.find((s) => s.id === id) ?? (matches.length === 1 ? matches[0] : undefined);
    if (!found) {
      throw new Error(
        matches.length > 1
          ? `"${id}" matches ${matches.length} shares; give more characters (tandem share ls)`
          : `no share "${id}"; tandem share ls lists them`,
      );
    }
    const { share } = await client.request('share:revoke', { id: found.id });
    return { share, closed: found.connected };
  });
  (args.out ?? process.stdout).write(
    `revoked ${share.id} (${share.name}, ${share.role} of session ${share.sessionId.slice(0, 8)})${closed > 0 ? `; closed ${closed} connection${closed === 1 ? '' : 's'}` : ''}\n`,
  );
  return 0;
}
