import type { ApprovalMode, SessionInfo } from '@tandem/shared';
import type { TandemClient } from '@tandem/tui/client';

export interface RunSettings {
  /** `--model`: switch the session's model (kept afterwards, as `tandem --model` does). */
  model?: string | undefined;
  /** `--approval-mode`: the session's mode for this run only. */
  mode?: ApprovalMode | undefined;
}

/**
 * Applies a run's `--model` and `--approval-mode` to the session it runs in, through
 * `session:configure` (so everyone attached sees them). Returns how to put the approval mode
 * back when the run ends: the mode is the run's, not the session's for good, so a person who
 * opens the folder's session afterwards does not find it in `full-auto`. The mode is left alone
 * if someone changed it meanwhile. The client must be attached as driver.
 */
export async function applyRunSettings(
  client: TandemClient,
  session: SessionInfo,
  settings: RunSettings,
): Promise<{ session: SessionInfo; restore(): Promise<void> }> {
  const before: ApprovalMode = session.mode ?? 'ask';
  const change: { model?: string; mode?: ApprovalMode } = {};
  if (settings.model && settings.model !== session.model) change.model = settings.model;
  if (settings.mode && settings.mode !== before) change.mode = settings.mode;
  if (!change.model && !change.mode) return { session, restore: async () => undefined };
  const configured = (await client.request('session:configure', { sessionId: session.id, ...change })).session;
  const runMode = change.mode;
  return {
    session: configured,
    async restore() {
      if (!runMode) return;
      const { sessions } = await client.request('session:list', {});
      const now = sessions.find((s) => s.id === session.id);
      if (now?.mode === runMode) await client.request('session:configure', { sessionId: session.id, mode: before });
    },
  };
}
