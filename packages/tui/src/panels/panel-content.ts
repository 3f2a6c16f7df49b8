import type { ViewState } from '../state/types.js';
import { auditContent } from './audit-panel.js';
import { jobsContent } from './jobs-panel.js';
import { memoryContent } from './memory-panel.js';
import { permissionsContent } from './permissions-panel.js';
import type { PanelContent, PanelState } from './types.js';

/** What the open panel shows: jobs live from the view state, the others from what was fetched. */
export function panelContent(panel: PanelState, state: ViewState): PanelContent {
  switch (panel.kind) {
    case 'jobs':
      return jobsContent(state.jobs, state.role);
    case 'permissions':
      return permissionsContent(panel.permissions, state.role);
    case 'audit':
      return auditContent(panel.audit);
    case 'memory':
      return memoryContent(panel.memory);
  }
}
