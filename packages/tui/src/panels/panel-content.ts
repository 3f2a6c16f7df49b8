import { hasControl, shareSummary } from '../state/access.js';
import type { ViewState } from '../state/types.js';
import { auditContent } from './audit-panel.js';
import { extensionsContent } from './extensions-panel.js';
import { jobsContent } from './jobs-panel.js';
import { memoryContent } from './memory-panel.js';
import { permissionsContent } from './permissions-panel.js';
import { sessionsContent } from './sessions-panel.js';
import { sharesContent } from './shares-panel.js';
import { diffContent } from './diff-panel.js';
import { rewindContent } from './rewind-panel.js';
import type { PanelContent, PanelKind, PanelState } from './types.js';

/** What the open panel shows: jobs live from the view state, the others from what was fetched. `now`: for countdowns (a share's expiry). */
export function panelContent(panel: PanelState, state: ViewState, now = Date.now()): PanelContent {
  const refused = panelRefusal(panel.kind, state);
  if (refused) return { title: PANEL_TITLES[panel.kind], rows: [], empty: refused, selectable: false, actions: [] };
  switch (panel.kind) {
    case 'jobs':
      return jobsContent(state.jobs, state.role);
    case 'permissions':
      return permissionsContent(panel.permissions, state.role);
    case 'audit':
      return auditContent(panel.audit);
    case 'memory':
      return memoryContent(panel.memory);
    case 'sessions':
      return sessionsContent(panel.sessions, state.session?.id);
    case 'extensions':
      return extensionsContent(panel.extensions?.servers, panel.extensions?.skills);
    case 'shares':
      return sharesContent(panel.shares, now);
    case 'diff':
      return diffContent(panel.diff);
    case 'rewind':
      return rewindContent(panel.rewind?.turns, state.role, panel.rewind?.off);
  }
}

/** Panels whose data the server gives only to the control token (anyone else is told so, once). */
export function needsControl(kind: PanelKind): boolean {
  return kind === 'permissions' || kind === 'audit' || kind === 'shares';
}

/** What a share's holder may open: its session's jobs, and the session list (its one session). */
const OPEN_TO_SHARES: ReadonlySet<PanelKind> = new Set(['jobs', 'sessions']);

const PANEL_TITLES: Readonly<Record<PanelKind, string>> = {
  jobs: 'background jobs',
  permissions: 'stored permissions',
  audit: 'audit',
  memory: 'memory',
  sessions: 'sessions',
  extensions: 'extensions',
  shares: 'shares',
  diff: 'diff',
  rewind: 'rewind',
};

const WHAT: Readonly<Record<PanelKind, string>> = {
  jobs: 'background jobs',
  permissions: 'stored permissions',
  audit: 'the audit log',
  memory: 'memory',
  sessions: 'the session list',
  extensions: 'MCP servers and skills',
  shares: "this session's shares",
  diff: "the last turn's diff",
  rewind: 'the turns to rewind to',
};

/**
 * Why this client may not open the panel, in a sentence, or undefined when it may. Asking the
 * server would only fetch a `forbidden`; the sentence says what the token allows instead.
 */
export function panelRefusal(kind: PanelKind, state: ViewState): string | undefined {
  if (state.share && !OPEN_TO_SHARES.has(kind)) {
    return `${WHAT[kind]}: not open to a share (you came in as ${shareSummary(state.share)})`;
  }
  if (needsControl(kind) && !hasControl(state)) {
    return `${WHAT[kind]}: needs the control token, and this client attached with the view token (attach with --token to see it)`;
  }
  return undefined;
}
