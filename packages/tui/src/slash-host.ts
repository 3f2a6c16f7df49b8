import type { CommandName, CommandPayload, CommandResult, CustomCommand } from '@tandem/shared';
import type { PanelController } from './panels/panel-controller.js';
import type { CopyLine, ViewState } from './state/types.js';

/**
 * What slash commands (and /export, custom commands, /help) need of the TUI: the session they act
 * on, the view state, a request to the server, and the ways to tell the person something. The
 * controller is one; naming the needs here keeps the slash actions from importing it back.
 */
export interface SlashHost {
  readonly state: ViewState;
  readonly panels: PanelController;
  readonly customCommands: readonly CustomCommand[];
  sessionId(): string;
  request<C extends CommandName>(command: C, payload: CommandPayload<C>, timeoutMs?: number): Promise<CommandResult<C>>;
  /** Runs `work`, saying what failed (as `label: …`) instead of throwing. */
  run(label: string, work: () => Promise<unknown>): Promise<void>;
  notice(level: 'info' | 'warn' | 'error', text: string, copy?: readonly CopyLine[]): void;
  showFlash(text: string): void;
  ask(question: string, onYes: () => void): void;
  copyToClipboard(text: string): void;
  loadCommands(): Promise<void>;
  toggleHidden(): void;
  quit(code?: number): void;
}
