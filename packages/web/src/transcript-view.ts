import type { TranscriptItem } from '@tandem/tui/state';
import { el } from './element.js';
import { renderItem } from './render-item.js';
import type { HistoryMark } from './viewer.js';

/** What the line above the first item says about the history before it. */
const MARK_TEXT: Record<HistoryMark, string> = {
  more: 'scroll up for earlier messages',
  loading: 'loading earlier…',
  start: 'start of session',
  capped: 'earlier history stays in the session log (this page holds the last 1,000 entries)',
};

/** See TranscriptView.position. */
export interface ReadingPosition {
  stick: boolean;
  anchor: HTMLElement | null;
  anchorTop: number;
}

/** How close to the top (px) the reader must scroll for the next older page to be asked for. */
export const NEAR_TOP_PX = 200;

/**
 * Keeps the transcript list in step with `state.items`. The reducer never mutates an item, so
 * an item whose object is unchanged keeps its node: a frame rebuilds only the items that
 * changed (usually the last one), whatever the length of the session. The first child is a
 * marker saying what lies before the first item (more history, loading, the start).
 *
 * Scrolling: at the bottom the list follows new items; elsewhere the first item on screen stays
 * where it is, so an older page put above (or any change above) never moves what is being read.
 * The browser's own scroll anchoring is off (CSS `overflow-anchor: none`) so it cannot move it twice.
 */
export class TranscriptView {
  private nodes = new WeakMap<TranscriptItem, HTMLLIElement>();
  private readonly marker = el('li', { class: 'history-marker' });

  constructor(private readonly list: HTMLElement) {}

  /**
   * Where the reader is: at the bottom, or which item is first on screen and where. The page
   * takes it before a frame changes anything around the list (a line above or below it appears
   * and the list's box shrinks), so a list at its bottom stays there.
   */
  position(): ReadingPosition {
    const stick = this.atBottom();
    const anchor = stick ? null : this.firstVisible();
    return { stick, anchor, anchorTop: anchor?.getBoundingClientRect().top ?? 0 };
  }

  update(items: readonly TranscriptItem[], mark: HistoryMark | null, at: ReadingPosition = this.position()): void {
    const { stick, anchor, anchorTop } = at;
    const wanted: HTMLLIElement[] = [this.marker];
    this.marker.hidden = mark === null;
    if (mark !== null && this.marker.dataset.history !== mark) {
      this.marker.dataset.history = mark;
      this.marker.textContent = MARK_TEXT[mark];
    }
    for (const item of items) {
      let node = this.nodes.get(item);
      if (!node) {
        node = renderItem(item);
        this.nodes.set(item, node);
      }
      wanted.push(node);
    }
    const keep = new Set<Element>(wanted);
    for (const child of [...this.list.children]) if (!keep.has(child)) child.remove();
    const present = this.list.children;
    for (let i = 0; i < wanted.length; i++) {
      const node = wanted[i] as HTMLLIElement;
      if (present[i] !== node) this.list.insertBefore(node, present[i] ?? null);
    }
    while (present.length > wanted.length) present[present.length - 1]?.remove();
    if (stick) this.list.scrollTop = this.list.scrollHeight;
    else if (anchor?.isConnected) this.list.scrollTop += anchor.getBoundingClientRect().top - anchorTop;
  }

  /** Whether the reader is at the top, where the next older page is wanted (or the list does not fill its box). */
  nearTop(): boolean {
    return this.list.scrollTop < NEAR_TOP_PX;
  }

  clear(): void {
    this.nodes = new WeakMap();
    this.list.replaceChildren();
  }

  private atBottom(): boolean {
    return this.list.scrollHeight - this.list.scrollTop - this.list.clientHeight < 40;
  }

  /** The first item whose bottom is below the list's top edge: what the reader sees first. */
  private firstVisible(): HTMLElement | null {
    const top = this.list.getBoundingClientRect().top;
    for (const child of this.list.children) {
      if (child === this.marker) continue;
      if (child.getBoundingClientRect().bottom > top) return child as HTMLElement;
    }
    return null;
  }
}
