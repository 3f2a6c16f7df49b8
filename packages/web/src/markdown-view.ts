import { lexer, type Token, type Tokens } from 'marked';
import { type Child, el } from './element.js';

/** Link targets the page follows; any other scheme (javascript:, data:) stays text. */
const SAFE_LINK = /^(https?:|mailto:)/i;

/**
 * A model's markdown answer as DOM nodes, built with `el` (text nodes only, never markup): the
 * model's text is untrusted, so raw HTML in it shows as text, images show as their address
 * (nothing is loaded), and only http(s) and mailto links become links.
 */
export function renderMarkdown(text: string): Node[] {
  return blocks(lexer(text));
}

function blocks(tokens: readonly Token[]): Node[] {
  const out: Node[] = [];
  for (const token of tokens) {
    const node = block(token);
    if (node) out.push(node);
  }
  return out;
}

function block(token: Token): Node | null {
  switch (token.type) {
    case 'space':
      return null;
    case 'heading':
      return el('p', { class: `md-heading h${(token as Tokens.Heading).depth}` }, ...inline((token as Tokens.Heading).tokens));
    case 'paragraph':
      return el('p', {}, ...inline((token as Tokens.Paragraph).tokens));
    case 'text':
      return el('span', {}, inlineToken(token));
    case 'code':
      return el('pre', { class: 'md-code' }, el('code', {}, (token as Tokens.Code).text));
    case 'blockquote':
      return el('blockquote', {}, ...blocks((token as Tokens.Blockquote).tokens));
    case 'list':
      return list(token as Tokens.List);
    case 'table':
      return table(token as Tokens.Table);
    case 'hr':
      return el('hr');
    default:
      return el('p', {}, token.raw);
  }
}

function list(token: Tokens.List): HTMLElement {
  const items = token.items.map((item) =>
    el('li', {}, item.task ? `[${item.checked ? 'x' : ' '}] ` : null, ...blocks(item.tokens.filter((t) => t.type !== 'checkbox'))),
  );
  if (!token.ordered) return el('ul', {}, ...items);
  const ordered = el('ol', {}, ...items);
  if (typeof token.start === 'number') ordered.start = token.start;
  return ordered;
}

function table(token: Tokens.Table): HTMLElement {
  const row = (cells: Tokens.TableCell[], tag: 'th' | 'td') => el('tr', {}, ...cells.map((cell) => el(tag, {}, ...inline(cell.tokens))));
  return el('table', { class: 'md-table' }, el('thead', {}, row(token.header, 'th')), el('tbody', {}, ...token.rows.map((r) => row(r, 'td'))));
}

function inline(tokens: readonly Token[]): Child[] {
  return tokens.map(inlineToken);
}

function inlineToken(token: Token): Child {
  switch (token.type) {
    case 'strong':
      return el('strong', {}, ...inline((token as Tokens.Strong).tokens));
    case 'em':
      return el('em', {}, ...inline((token as Tokens.Em).tokens));
    case 'del':
      return el('del', {}, ...inline((token as Tokens.Del).tokens));
    case 'codespan':
      return el('code', {}, (token as Tokens.Codespan).text);
    case 'br':
      return el('br');
    case 'link':
      return link(token as Tokens.Link);
    case 'image': {
      const image = token as Tokens.Image;
      return `[image: ${image.text}] (${image.href})`;
    }
    case 'text': {
      const t = token as Tokens.Text;
      return t.tokens ? el('span', {}, ...inline(t.tokens)) : t.text;
    }
    case 'escape':
      return (token as Tokens.Escape).text;
    default:
      return token.raw;
  }
}

function link(token: Tokens.Link): Child {
  const label = inline(token.tokens);
  if (!SAFE_LINK.test(token.href)) return el('span', {}, ...label, ` (${token.href})`);
  const a = el('a', {}, ...label);
  a.href = token.href;
  a.target = '_blank';
  a.rel = 'noopener noreferrer';
  return a;
}
