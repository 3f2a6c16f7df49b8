import type { TranscriptItem } from '@tandem/tui/state';
import { renderItem } from './render-item.js';

/**
 * Keeps the transcript list in step with `state.items`. The reducer never mutates an item, so
 * an item whose object is unchanged keeps its node: a frame rebuilds only the items that
 * changed (usually the last one), whatever the length of the session.
 */
export class TranscriptView {
  private nodes = new WeakMap<TranscriptItem, HTMLLIElement>();

  constructor(private readonly list: HTMLElement) {}

  update(items: readonly TranscriptItem[]): void {
    const stick = this.atBottom();
    const wanted = items.map((item) => {
      let node = this.nodes.get(item);
      if (!node) {
        node = renderItem(item);
        this.nodes.set(item, node);
      }
      return node;
    });
    const keep = new Set<Element>(wanted);
    for (const child of [...this.list.children]) if (!keep.has(child)) child.remove();
    const present = this.list.children;
    for (let i = 0; i < wanted.length; i++) {
      const node = wanted[i] as HTMLLIElement;
      if (present[i] !== node) this.list.insertBefore(node, present[i] ?? null);
    }
    while (present.length > wanted.length) present[present.length - 1]?.remove();
    if (stick) this.list.scrollTop = this.list.scrollHeight;
  }

  clear(): void {
    this.nodes = new WeakMap();
    this.list.replaceChildren();
  }

  private atBottom(): boolean {
    return this.list.scrollHeight - this.list.scrollTop - this.list.clientHeight < 40;
  }
}
