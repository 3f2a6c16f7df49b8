import type { SessionModeState } from '@agentclientprotocol/sdk';
import { APPROVAL_MODES, type ApprovalMode } from '@tandem/shared';

/** What each Tandem approval mode means, as an editor's mode picker shows it. */
const MODE_TEXT: Record<ApprovalMode, { name: string; description: string }> = {
  ask: { name: 'Ask', description: 'Ask before every tool call that can change something' },
  'auto-edit': { name: 'Auto-edit', description: 'Edit files inside the workspace without asking; commands still ask' },
  'read-only': { name: 'Read-only', description: 'Refuse every tool call and command that would change something' },
  'full-auto': {
    name: 'Full auto',
    description: 'Run what the blacklist, the sandbox and the rate limit let through without asking (still audited)',
  },
};

/** ACP session modes are Tandem's approval modes (the mode id is the approval mode). */
export function modeState(current: ApprovalMode | undefined): SessionModeState {
  return {
    currentModeId: current ?? 'ask',
    availableModes: APPROVAL_MODES.map((id) => ({ id, ...MODE_TEXT[id] })),
  };
}

export function approvalModeOf(modeId: string): ApprovalMode | undefined {
  return APPROVAL_MODES.find((mode) => mode === modeId);
}
