import type { AuditRecord, CommandResult, SessionInfo, ShareInfo, StoredPermission } from '@tandem/shared';

/** What the extensions panel lists: the server's answers to mcp:list, skills:list and packages:list. */
export type McpServers = CommandResult<'mcp:list'>['servers'];
export type Skills = CommandResult<'skills:list'>['skills'];
export type Packages = CommandResult<'packages:list'>['packages'];

/** /diff: the last turn's files and their unified diff (session:diff). */
export interface TurnDiff {
  turnId?: string | undefined;
  files: Array<{ path: string; status: 'added' | 'modified' | 'deleted' }>;
  diff: string;
}

/** /rewind: one turn that can be taken back, with how many files it changed. */
export interface RewindTurn {
  turnId: string;
  startedAt: string;
  cancelled: boolean;
  files: number;
}

/** The overlay panels, each opened by a key or a slash command. */
export type PanelKind = 'jobs' | 'permissions' | 'audit' | 'memory' | 'sessions' | 'extensions' | 'shares' | 'diff' | 'rewind';

/** What a panel holds between renders. Data fetched over the wire stays here until refreshed. */
export interface PanelState {
  kind: PanelKind;
  /** The selected row, or for a panel without selection the first row shown. */
  selected: number;
  loading: boolean;
  /** One line under the list: an outcome ("stopped job-2") or why something failed. */
  message: { level: 'info' | 'error'; text: string } | null;
  permissions?: StoredPermission[];
  audit?: AuditRecord[];
  memory?: { memory: string; history: string };
  sessions?: SessionInfo[];
  extensions?: { servers: McpServers; skills: Skills; packages?: Packages };
  shares?: ShareInfo[];
  diff?: TurnDiff;
  rewind?: { turns: RewindTurn[]; off?: string | undefined };
}

/** One row of a panel's list; `text` and `detail` are plain text (escaped when formatted). */
export interface PanelRow {
  key: string;
  text: string;
  /** Shown under the list for the selected row. */
  detail?: string;
  /** Tint of the row: e.g. red for a deny rule or a failed call. */
  tone?: 'normal' | 'good' | 'bad' | 'muted';
}

/** A key that acts on the selected row, e.g. `x` stops a job (`enter`: the Enter key). */
export interface PanelAction {
  key: string;
  name: 'stop_job' | 'revoke_permission' | 'switch_session' | 'revoke_share' | 'rewind_to';
  label: string;
}

/** Everything the overlay draws for a panel; built by the panel's own file, drawn by one view. */
export interface PanelContent {
  title: string;
  rows: PanelRow[];
  /** Shown instead of the list when it is empty. */
  empty: string;
  /** False for text to read (memory): arrows scroll instead of selecting. */
  selectable: boolean;
  /** Actions this client may take here (none for a viewer). */
  actions: PanelAction[];
  /** A line about what this client cannot do here, e.g. read-only for viewers. */
  note?: string;
}

export function emptyPanel(kind: PanelKind): PanelState {
  return { kind, selected: 0, loading: kind !== 'jobs', message: null };
}
