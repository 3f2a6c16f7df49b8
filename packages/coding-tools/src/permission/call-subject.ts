import path from 'node:path';
import type { StoredPermission } from '@tandem/shared';
import { lexShell, type ShellSegment } from '../shell/index.js';
import { leadingWordChoices } from './command-level.js';
import type { PolicyCall, PolicyOptions } from './rule.js';

/** What a rule about this call can be about. */
export type CallSubject =
  | { kind: 'command'; command: string; segments: ShellSegment[] }
  | { kind: 'path'; path: string; display: string }
  /** A web address (web_fetch): rules cover the exact URL, or every page of its site (`https://host/`). */
  | { kind: 'url'; url: string; site: string }
  /** An external agent's connector_call: rules cover one (agent, server) pair (`agent/server`). */
  | { kind: 'pair'; key: string; label: string }
  /** A command's connection (`network`): rules cover `host:port`, or the host on every port (`host:`). */
  | { kind: 'host'; host: string; port: number; target: string }
  | { kind: 'tool' };

/** One choice offered in the dialog: its label (sent as `scopes[i]`, answered as `scope`) and the rule it makes. */
export interface ScopeOption {
  label: string;
  match: StoredPermission['match'];
  pattern?: string;
}

/** Label of the scope that covers every call of the tool (file tools and plain tools only). */
export const WHOLE_TOOL_SCOPE = '*';

/** The tool name of a command's connection question (ARCHITECTURE: `tool: "network"`). */
export const NETWORK_TOOL = 'network';

type SubjectOptions = Pick<PolicyOptions, 'workspace'>;

/** The call's subject, from what its tool declared (`subject`): never from the tool's name or argument keys. */
export function subjectOf(call: PolicyCall, options: SubjectOptions = {}): CallSubject {
  // Read defensively: a tool's declaration is code written against arguments that may be odd.
  const declared = call.subject as Partial<Record<'command' | 'path' | 'url' | 'host' | 'port' | 'agent' | 'server', unknown>> | undefined;
  if (!declared) return { kind: 'tool' };
  if (typeof declared.agent === 'string' && typeof declared.server === 'string') {
    return { kind: 'pair', key: `${declared.agent}/${declared.server}`, label: `agent ${declared.agent} → MCP server ${declared.server}` };
  }
  if ('command' in declared) {
    const command = typeof declared.command === 'string' ? declared.command.trim() : '';
    const segments = command === '' ? [] : lexShell(command).filter((s) => s.text.trim() !== '');
    return { kind: 'command', command, segments };
  }
  if (typeof declared.host === 'string' && typeof declared.port === 'number') {
    const host = declared.host.toLowerCase();
    const shown = host.includes(':') ? `[${host}]` : host;
    return { kind: 'host', host: shown, port: declared.port, target: `${shown}:${declared.port}` };
  }
  if (typeof declared.path === 'string' && declared.path.trim() !== '') {
    const raw = declared.path.trim();
    const abs = options.workspace ? path.resolve(options.workspace, raw) : path.normalize(raw);
    return { kind: 'path', path: abs, display: displayPath(abs, options.workspace) };
  }
  const site = typeof declared.url === 'string' ? siteOf(declared.url) : undefined;
  return site ? { kind: 'url', url: (declared.url as string).trim(), site } : { kind: 'tool' };
}

/** `https://example.com/` for an http(s) address; undefined for anything else. */
function siteOf(raw: string): string | undefined {
  try {
    const url = new URL(raw.trim());
    return url.protocol === 'http:' || url.protocol === 'https:' ? `${url.origin}/` : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The scopes a person may choose for a stored decision, narrowest first:
 * - a command: the exact command, then for each segment its leading words as `git status *`
 *   and `git *` (a prefix rule; the person must pick it, it is never widened on its own);
 * - a file tool: the exact path, each enclosing directory up to the workspace (`src/`, `./`),
 *   then `*` for the whole tool;
 * - a web address: the exact URL, then its site (`https://example.com/*`: the domain scope), then `*`;
 * - an external agent's connector_call: the (agent, server) pair only;
 * - any other tool: `*` (the tool);
 * - an always-ask tool: nothing (every decision acts once).
 */
export function scopeOptions(call: PolicyCall, subject: CallSubject, options: Pick<PolicyOptions, 'workspace'> = {}): ScopeOption[] {
  if (call.alwaysAsk) return [];
  const out: ScopeOption[] = [];
  const add = (option: ScopeOption) => {
    if (option.label !== '' && !out.some((o) => o.label === option.label)) out.push(option);
  };
  switch (subject.kind) {
    case 'command':
      add({ label: subject.command, match: 'exact', pattern: subject.command });
      for (const segment of subject.segments) {
        for (const words of leadingWordChoices(segment)) add({ label: `${words} *`, match: 'prefix', pattern: words });
      }
      break;
    case 'path':
      add({ label: subject.display, match: 'path', pattern: subject.path });
      for (const dir of enclosingDirs(subject.path, options.workspace)) {
        add({ label: displayDir(dir, options.workspace), match: 'prefix', pattern: withSlash(dir) });
      }
      add({ label: WHOLE_TOOL_SCOPE, match: 'tool' });
      break;
    case 'url':
      add({ label: subject.url, match: 'exact', pattern: subject.url });
      add({ label: `${subject.site}*`, match: 'prefix', pattern: subject.site });
      add({ label: WHOLE_TOOL_SCOPE, match: 'tool' });
      break;
    case 'pair':
      add({ label: subject.label, match: 'exact', pattern: subject.key });
      break;
    case 'host':
      // Never the whole tool: "every host" is config.json's `sandbox.network: "allow"`, not a click.
      add({ label: subject.target, match: 'exact', pattern: subject.target });
      add({ label: `${subject.host}:*`, match: 'prefix', pattern: `${subject.host}:` });
      break;
    case 'tool':
      add({ label: WHOLE_TOOL_SCOPE, match: 'tool' });
      break;
  }
  return out;
}

/** Directories from the file's parent up to the workspace root; only the parent when outside it. */
function enclosingDirs(file: string, workspace: string | undefined): string[] {
  const parent = path.dirname(file);
  if (!workspace || !isInside(parent, workspace)) return parent === file ? [] : [parent];
  const dirs: string[] = [];
  for (let dir = parent; isInside(dir, workspace); dir = path.dirname(dir)) {
    dirs.push(dir);
    if (dir === path.resolve(workspace)) break;
  }
  return dirs;
}

function isInside(p: string, dir: string): boolean {
  const rel = path.relative(path.resolve(dir), p);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}

export function displayPath(abs: string, workspace: string | undefined): string {
  if (!workspace || !isInside(abs, workspace)) return abs;
  return path.relative(path.resolve(workspace), abs) || '.';
}

function displayDir(dir: string, workspace: string | undefined): string {
  if (!workspace || !isInside(dir, workspace)) return withSlash(dir);
  const rel = path.relative(path.resolve(workspace), dir);
  return rel === '' ? './' : `${rel}/`;
}

export function withSlash(dir: string): string {
  return dir.endsWith('/') ? dir : `${dir}/`;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
