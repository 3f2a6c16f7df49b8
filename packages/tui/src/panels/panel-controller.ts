import type { CommandName, CommandPayload, CommandResult } from '@tandem/shared';
import type { KeyPress } from '../input/line-editor.js';
import type { Action } from '../state/reducer.js';
import type { ViewState } from '../state/types.js';
import { AUDIT_LIMIT } from './audit-panel.js';
import { panelContent, panelRefusal } from './panel-content.js';
import { shareStanding } from './shares-panel.js';
import { moveSelection, panelKey } from './panel-keys.js';
import { emptyPanel, type PanelAction, type PanelKind, type PanelState } from './types.js';

export interface PanelHost {
  request<C extends CommandName>(command: C, payload: CommandPayload<C>): Promise<CommandResult<C>>;
  state(): ViewState;
  dispatch(action: Action): void;
  /** Something on screen changed; redraw on the next tick. */
  changed(): void;
  /** Rows the list shows per page (for PgUp/PgDn). */
  pageRows(): number;
  /** Detaches from the current session and attaches this terminal to another one. */
  switchSession(sessionId: string): Promise<void>;
  /** Asks a yes/no question in the input line; `onYes` runs on y (e.g. before revoking a share). */
  ask(question: string, onYes: () => void): void;
  /** The clock (ms), for whether a share has expired. */
  now(): number;
}

/**
 * The one open panel (or none): opens it, fetches what it shows, moves the selection, runs
 * its actions. Answers arriving after the panel closed or was replaced are dropped.
 */
export class PanelController {
  panel: PanelState | null = null;
  private generation = 0;

  constructor(private readonly host: PanelHost) {}

  open(kind: PanelKind): void {
    this.generation += 1;
    this.panel = emptyPanel(kind);
    this.host.changed();
    this.load();
  }

  close(): void {
    this.generation += 1;
    this.panel = null;
    this.host.changed();
  }

  /** Fetches the open panel's data again if it is `kind` (e.g. the shares' connected counts after a presence change). */
  reload(kind: PanelKind): void {
    if (this.panel?.kind === kind) this.load();
  }

  /** Handles a key while a panel is open; false when no panel is open. */
  key(press: KeyPress): boolean {
    const panel = this.panel;
    if (!panel) return false;
    const content = panelContent(panel, this.host.state(), this.host.now());
    const intent = panelKey(press, content);
    switch (intent.kind) {
      case 'close':
        this.close();
        break;
      case 'move':
        this.update({ selected: moveSelection(panel.selected, intent.to, content.rows.length, this.host.pageRows()) });
        break;
      case 'refresh':
        this.update({ message: null });
        this.load();
        break;
      case 'action': {
        const row = content.rows[panel.selected];
        if (row) this.act(intent.action, row.key, row.text);
        break;
      }
      case 'none':
        break;
    }
    return true;
  }

  private load(): void {
    const panel = this.panel;
    if (!panel) return;
    // A viewer or a share is told once what its token does not open; asking would only fetch an error.
    if (panelRefusal(panel.kind, this.host.state())) return this.update({ loading: false });
    const sessionId = this.host.state().session?.id ?? '';
    switch (panel.kind) {
      case 'jobs':
        return this.fetch(
          () => this.host.request('jobs:list', { sessionId }),
          (data) => {
            this.host.dispatch({ kind: 'jobs', jobs: data.jobs });
            return {};
          },
        );
      case 'permissions': {
        const workspace = this.host.state().session?.cwd;
        return this.fetch(
          () => this.host.request('permissions:list', workspace ? { workspace } : {}),
          (data) => ({ permissions: data.permissions }),
        );
      }
      case 'audit':
        return this.fetch(
          () => this.host.request('audit:query', { sessionId, limit: AUDIT_LIMIT }),
          (data) => ({ audit: data.records }),
        );
      case 'memory':
        return this.fetch(
          () => this.host.request('memory:show', { sessionId }),
          (data) => ({ memory: data }),
        );
      case 'sessions':
        return this.fetch(
          () => this.host.request('session:list', {}),
          (data) => ({ sessions: data.sessions }),
        );
      case 'extensions':
        return this.fetch(
          async () => {
            const [mcp, skills] = await Promise.all([this.host.request('mcp:list', { sessionId }), this.host.request('skills:list', { sessionId })]);
            return { servers: mcp.servers, skills: skills.skills };
          },
          (data) => ({ extensions: data }),
        );
      case 'diff':
        return this.fetch(
          () => this.host.request('session:diff', { sessionId }),
          (data) => ({ diff: data }),
        );
      case 'rewind':
        return this.fetch(
          () => this.host.request('session:checkpoints', { sessionId }),
          (data) => ({ rewind: data }),
        );
      case 'shares':
        return this.fetch(
          () => this.host.request('share:list', { sessionId }),
          (data) => ({ shares: data.shares }),
        );
    }
  }

  private act(action: PanelAction, key: string, text: string): void {
    const sessionId = this.host.state().session?.id ?? '';
    if (action.name === 'switch_session') {
      if (key === sessionId) return this.close();
      const generation = this.generation;
      this.update({ message: { level: 'info', text: `switching to ${key}…` } });
      this.host.switchSession(key).then(
        () => {
          if (generation === this.generation) this.close();
        },
        (err: unknown) => {
          if (generation === this.generation) this.update({ message: { level: 'error', text: `switching failed: ${failure('sessions', err)}` } });
        },
      );
    } else if (action.name === 'rewind_to') {
      const turns = Number(key);
      this.run(
        async () => {
          const result = await this.host.request('session:undo', { sessionId, turns });
          const conflicts = result.conflicts.length > 0 ? `; left alone (changed since): ${result.conflicts.map((c) => c.path).join(', ')}` : '';
          this.host.dispatch({
            kind: 'notice',
            level: 'info',
            text: `rewound ${turns} turn${turns === 1 ? '' : 's'}: ${result.files.length} file(s) restored${conflicts}`,
          });
        },
        `rewound ${turns} turn${turns === 1 ? '' : 's'}`,
        () => this.close(),
      );
    } else if (action.name === 'revoke_share') {
      this.revokeShare(key);
    } else if (action.name === 'stop_job') {
      const job = this.host.state().jobs.find((candidate) => candidate.jobId === key);
      if (job && job.status !== 'running') return this.update({ message: { level: 'info', text: `${key} is not running (${job.status})` } });
      this.run(
        () => this.host.request('job:stop', { sessionId, jobId: key }),
        `stop requested for ${key}`,
        () => this.load(),
      );
    } else {
      this.run(
        () => this.host.request('permissions:revoke', { id: key }),
        `revoked: ${text.replace(/\s+/g, ' ').trim()}`,
        () => this.load(),
      );
    }
  }

  /** r in /shares: asks first, then ends the share (its holder is disconnected at once) and lists again. */
  private revokeShare(id: string): void {
    const share = this.panel?.shares?.find((candidate) => candidate.id === id);
    if (!share) return;
    const standing = shareStanding(share, this.host.now());
    if (standing !== 'active') return this.update({ message: { level: 'info', text: `${share.name}'s share is already ${standing}` } });
    this.host.ask(`Revoke ${share.name}'s share (${share.role})? They are disconnected at once and the link stops working. y / n`, () =>
      this.run(
        () => this.host.request('share:revoke', { id }),
        `revoked ${share.name}'s share (${share.role}): disconnected, and the link no longer works`,
        () => this.load(),
      ),
    );
  }

  private fetch<T>(request: () => Promise<T>, apply: (data: T) => Partial<PanelState>): void {
    const generation = this.generation;
    this.update({ loading: true });
    request().then(
      (data) => {
        if (generation === this.generation) this.update({ loading: false, ...apply(data) });
      },
      (err: unknown) => {
        if (generation === this.generation)
          this.update({ loading: false, message: { level: 'error', text: failure(this.panel?.kind, err, this.host.state().tokenKind) } });
      },
    );
  }

  private run(request: () => Promise<unknown>, done: string, after: () => void): void {
    const generation = this.generation;
    request().then(
      () => {
        if (generation !== this.generation) return;
        this.update({ message: { level: 'info', text: done } });
        after();
      },
      (err: unknown) => {
        if (generation === this.generation) this.update({ message: { level: 'error', text: failure(this.panel?.kind, err, this.host.state().tokenKind) } });
      },
    );
  }

  private update(change: Partial<PanelState>): void {
    if (!this.panel) return;
    const next = { ...this.panel, ...change };
    // Keep the selection on the list after it shrank (a revoked rule, a refreshed list).
    const rows = panelContent(next, this.host.state(), this.host.now()).rows.length;
    next.selected = Math.min(next.selected, Math.max(0, rows - 1));
    this.panel = next;
    this.host.changed();
  }
}

/** A failed request as the panel says it; forbidden gets what to do about it (a share's refusal already says what it allows). */
export function failure(kind: PanelKind | undefined, err: unknown, tokenKind?: ViewState['tokenKind']): string {
  const code = (err as { code?: unknown } | null)?.code;
  const message = err instanceof Error ? err.message : String(err);
  if ((code === 'forbidden' || code === 'unauthorized') && tokenKind !== 'share') {
    const what = kind === 'permissions' ? 'stored permissions' : kind === 'audit' ? 'the audit log' : kind === 'jobs' ? 'stopping a job' : 'this';
    return `${what}: needs the control token, and this client attached with the view token (server: ${message})`;
  }
  return message;
}
