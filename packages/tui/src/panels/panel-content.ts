import type { ViewState } from '../state/types.js';
import { auditContent } from './audit-panel.js';
import { extensionsContent } from './extensions-panel.js';
import { jobsContent } from './jobs-panel.js';
import { memoryContent } from './memory-panel.js';
import { permissionsContent } from './permissions-panel.js';
import { sessionsContent } from './sessions-panel.js';
import { diffContent } from './diff-panel.js';
import { rewindContent } from './rewind-panel.js';
import type { PanelContent, PanelKind, PanelState } from './types.js';

/** What the open panel shows: jobs live from the view state, the others from what was fetched. */
export function panelContent(panel: PanelState, state: ViewState): PanelContent {
  if (needsControl(panel.kind) && state.role === 'viewer') return controlOnly(panel.kind);
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
    case 'diff':
      return diffContent(panel.diff);
    case 'rewind':
      return rewindContent(panel.rewind?.turns, state.role, panel.rewind?.off);
  }
}

/** Panels whose data the server gives only to the control token (a viewer is told so, once). */
export function needsControl(kind: PanelKind): boolean {
  return kind === 'permissions' || kind === 'audit';
}

function controlOnly(kind: PanelKind): PanelContent {
  const what = kind === 'permissions' ? 'stored permissions' : 'the audit log';
  return {
    title: kind === 'permissions' ? 'stored permissions' : 'audit',
    rows: [],
    empty: `${what}: needs the control token, and this client attached with the view token (attach with --token to see it)`,
    selectable: false,
    actions: [],
  };
}
