import blessed from 'blessed';
import type { LineEditor } from '../input/line-editor.js';
import type { ViewState } from '../state/types.js';
import { formatTranscript } from './format-transcript.js';
import { formatPermission, rowsOf } from './format-permission.js';
import type { DialogFocusView } from '../input/dialog-focus.js';
import { formatHelp, formatStatus } from './format-status.js';
import { formatInput } from './input-view.js';
import { formatPanel, PANEL_CHROME_LINES } from './format-panel.js';
import type { PanelContent, PanelState } from '../panels/types.js';
import { canApprove, inputWatchText } from '../state/access.js';
import { osc52 } from './osc52.js';
import { drawWithoutColour } from './no-color.js';
import { DISABLE_BRACKETED_PASTE, ENABLE_BRACKETED_PASTE } from '../input/bracketed-paste.js';

/** The open panel and what it shows, or null. */
export type OpenPanel = { panel: PanelState; content: PanelContent } | null;

/** What the screen shows besides the view state: the input line and short-lived UI bits. */
export interface LocalView {
  editor: LineEditor;
  /** A one-off message on the key-hint line (e.g. the watch-only notice), or undefined. */
  flash?: string | undefined;
  spinnerFrame: number;
  now: number;
  /** Which offered scope a lasting permission decision applies to. */
  scopeIndex: number;
  /** Whether the permission dialog has the keys, or why not yet. */
  dialog: DialogFocusView;
  /** A yes/no question waiting in the input line (e.g. before /clear). */
  question?: string | undefined;
  /** Agent names matching the `@…` being typed (the key-hint line offers them). */
  mentions?: readonly string[] | undefined;
}

/**
 * The widgets, laid out once: transcript on top, then status, input and help lines, and the
 * permission dialog as an overlay. `render` only copies state into them; callers coalesce.
 */
export class Layout {
  readonly screen: blessed.Widgets.Screen;
  private readonly transcript: blessed.Widgets.BoxElement;
  private readonly status: blessed.Widgets.BoxElement;
  private readonly input: blessed.Widgets.BoxElement;
  private readonly help: blessed.Widgets.BoxElement;
  private readonly dialog: blessed.Widgets.BoxElement;
  /** One overlay for every panel (jobs, permissions, audit, memory); Esc closes it. */
  private readonly panel: blessed.Widgets.BoxElement;
  /** Follow new output unless the user scrolled up. */
  private follow = true;
  private lastItems: ViewState['items'] | null = null;
  private lastShowHidden = false;

  constructor(options: { noColor?: boolean } = {}) {
    this.screen = blessed.screen({ smartCSR: true, fullUnicode: true, title: 'tandem' });
    if (options.noColor) drawWithoutColour(this.screen);
    // Pastes arrive wrapped (ESC[200~ … ESC[201~), so a pasted newline is text, not Enter.
    this.screen.program.write(ENABLE_BRACKETED_PASTE);
    this.transcript = blessed.box({
      parent: this.screen,
      top: 0,
      left: 0,
      width: '100%',
      height: '100%-3',
      tags: true,
      scrollable: true,
      alwaysScroll: true,
      scrollbar: { ch: ' ', style: { bg: 'gray' } },
      wrap: true,
    });
    this.status = blessed.box({ parent: this.screen, bottom: 2, left: 0, width: '100%', height: 1, tags: true, style: { bg: 'black' } });
    this.input = blessed.box({ parent: this.screen, bottom: 1, left: 0, width: '100%', height: 1, tags: true });
    this.help = blessed.box({ parent: this.screen, bottom: 0, left: 0, width: '100%', height: 1, tags: true });
    // The dialog and the panel: hidden framed boxes, centred, over the transcript.
    const framed = { parent: this.screen, left: 'center', tags: true, border: { type: 'line' }, padding: { left: 1, right: 1 }, hidden: true } as const;
    this.dialog = blessed.box({ ...framed, bottom: 3, width: '80%', height: 'shrink', style: { border: { fg: 'magenta' } } });
    this.panel = blessed.box({ ...framed, top: 1, width: '94%', height: '100%-5', style: { border: { fg: 'cyan' }, label: { fg: 'cyan' } } });
  }

  /** Rows of a panel's list that fit on screen (a page for PgUp/PgDn). */
  panelRows(): number {
    return Math.max(1, Number(this.screen.height) - 5 - 2 - PANEL_CHROME_LINES);
  }

  /** Scrolls the transcript by pages; scrolling to the bottom resumes following. */
  scroll(pages: number): void {
    const height = Math.max(1, Number(this.transcript.height) - 1);
    this.transcript.scroll(pages * height);
    this.follow = this.transcript.getScrollPerc() >= 100;
  }

  /** Whether the transcript shows its first line. */
  atTop(): boolean {
    return this.transcript.getScroll() === 0;
  }

  render(state: ViewState, local: LocalView, open: OpenPanel = null): void {
    // Older history put above what is shown keeps the same lines on screen.
    // (Only after a first render: blessed has no wrapped lines to measure before its first content.)
    const prepended = this.lastItems !== null && this.lastItems.length > 0 && state.items.indexOf(this.lastItems[0]!) > 0;
    const rowsBefore = prepended ? this.transcript.getScrollHeight() : 0;
    const scrolledTo = prepended ? this.transcript.getScroll() : 0;
    if (state.items !== this.lastItems || state.showHidden !== this.lastShowHidden) {
      this.transcript.setContent(formatTranscript(state.items, { showHidden: state.showHidden }).join('\n'));
      this.lastItems = state.items;
      this.lastShowHidden = state.showHidden;
    }
    if (prepended && !this.follow) this.transcript.scrollTo(scrolledTo + this.transcript.getScrollHeight() - rowsBefore);
    if (this.follow) this.transcript.setScrollPerc(100);
    const width = Number(this.screen.width) || 80;
    this.status.setContent(formatStatus(state, local.spinnerFrame, { now: local.now, width }));
    this.input.setContent(
      formatInput(local.editor, width, {
        viewer: state.role === 'viewer',
        watching: inputWatchText(state),
        command: state.commandFocus !== null,
        question: local.question,
      }),
    );
    this.help.setContent(
      formatHelp(state, { width, dialog: local.dialog, confirming: local.question !== undefined, flash: local.flash, mentions: local.mentions }),
    );
    this.renderPanel(open);
    this.renderDialog(state, local);
    this.screen.render();
  }

  private renderDialog(state: ViewState, local: LocalView): void {
    const [first] = state.pendingPermissions;
    if (!first) {
      if (!this.dialog.hidden) this.dialog.hide();
      return;
    }
    // Down to 60x15 the choices must show: a narrow screen gets a full-width dialog, and the
    // dialog may use every row above the status line; formatPermission cuts the arguments first.
    const columns = Number(this.screen.width) || 80;
    const dialogWidth = columns < 80 ? columns : Math.floor(columns * 0.8);
    const maxHeight = Math.max(5, Number(this.screen.height) - 3);
    const lines = formatPermission(first, {
      role: state.role,
      canAnswer: canApprove(state),
      share: state.share !== null,
      now: local.now,
      more: state.pendingPermissions.length - 1,
      scopeIndex: local.scopeIndex,
      focus: local.dialog,
      width: dialogWidth - 4,
      maxLines: maxHeight - 2,
    });
    this.dialog.width = dialogWidth;
    this.dialog.setContent(lines.join('\n'));
    this.dialog.height = Math.min(maxHeight, rowsOf(lines, dialogWidth - 4) + 2);
    if (this.dialog.hidden) this.dialog.show();
    this.dialog.setFront();
  }

  private renderPanel(open: OpenPanel): void {
    if (!open) {
      if (!this.panel.hidden) this.panel.hide();
      return;
    }
    const height = Math.max(3, Number(this.screen.height) - 5 - 2);
    const width = Math.max(10, Number(this.panel.width) - 4);
    this.panel.setLabel(` ${open.content.title.replace(/[{}]/g, '')} `);
    this.panel.setContent(formatPanel(open.content, open.panel, height, width).join('\n'));
    if (this.panel.hidden) this.panel.show();
    this.panel.setFront();
  }

  /** Puts `text` on the terminal's clipboard (OSC 52), written past blessed's buffer so it is one whole sequence. */
  copyToClipboard(text: string): void {
    this.screen.program.flush();
    this.screen.program.write(osc52(text));
  }

  destroy(): void {
    this.screen.program.write(DISABLE_BRACKETED_PASTE);
    this.screen.destroy();
  }
}
