import type { PanelContent, PanelRow, PanelState } from '../panels/types.js';
import { bold, color, dim, esc } from './tags.js';

/** Lines of the panel around the list: blank, detail, message, hints. */
export const PANEL_CHROME_LINES = 4;

/**
 * The open panel as blessed-tagged lines for an overlay `height` lines tall (inside the border)
 * and `width` columns wide: the visible window of the list (the selected row inverse), then the
 * selected row's detail, the last outcome or error, and the keys. Pure; everything is escaped.
 */
export function formatPanel(content: PanelContent, panel: PanelState, height: number, width: number): string[] {
  const listHeight = Math.max(1, height - PANEL_CHROME_LINES);
  const lines: string[] = [];
  if (panel.loading && content.rows.length === 0) lines.push(dim('loading…'));
  else if (content.rows.length === 0) lines.push(dim(esc(content.empty)));
  else {
    const top = content.selectable
      ? windowTop(panel.selected, content.rows.length, listHeight)
      : Math.min(panel.selected, Math.max(0, content.rows.length - listHeight));
    for (const [offset, row] of content.rows.slice(top, top + listHeight).entries()) {
      const text = esc(clip(row.text, width - 2));
      lines.push(content.selectable && top + offset === panel.selected ? `{inverse}${text}{/inverse}` : toned(row, text));
    }
    if (!content.selectable && content.rows.length > listHeight)
      lines.push(dim(`lines ${top + 1}–${Math.min(content.rows.length, top + listHeight)} of ${content.rows.length}`));
  }
  lines.push('');
  const selected = content.selectable ? content.rows[panel.selected] : undefined;
  lines.push(selected?.detail ? dim(esc(clip(selected.detail, width))) : '');
  if (panel.message) lines.push(panel.message.level === 'error' ? color('red', `✗ ${esc(panel.message.text)}`) : color('green', esc(panel.message.text)));
  else if (content.note) lines.push(color('magenta', esc(content.note)));
  const keys = [
    content.selectable ? '↑↓ select' : '↑↓ PgUp/PgDn scroll',
    ...content.actions.map((action) => bold(esc(action.label))),
    'g refresh',
    'Esc close',
  ];
  lines.push(dim(keys.join(' · ')));
  return lines;
}

/** The first row shown so that the selected one is visible, scrolling as little as possible. */
export function windowTop(selected: number, rows: number, height: number): number {
  if (rows <= height) return 0;
  const top = selected - Math.floor(height / 2);
  return Math.min(rows - height, Math.max(0, top));
}

function toned(row: PanelRow, text: string): string {
  switch (row.tone) {
    case 'good':
      return color('green', text);
    case 'bad':
      return color('red', text);
    case 'muted':
      return dim(text);
    default:
      return text;
  }
}

function clip(text: string, width: number): string {
  const flat = text.replace(/[\t\r\n]/g, ' ');
  return width > 1 && flat.length > width ? `${flat.slice(0, width - 1)}…` : flat;
}
