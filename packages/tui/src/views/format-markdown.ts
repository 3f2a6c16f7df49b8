import { lexer, type Token, type Tokens } from 'marked';
import { visibleWidth } from './fit-line.js';
import { bold, color, dim, esc } from './tags.js';

/**
 * An agent's answer, written in markdown, as blessed-tagged lines: headings and **strong** in
 * bold, `code` and code blocks in cyan (no fences), lists with bullets or numbers and their
 * nesting, quotes behind a bar, tables with aligned columns, links with their address. marked
 * reads the text (an unfinished code block while streaming is read as code to the end); what
 * it does not know is shown as written. Every piece of text is escaped, so braces stay text.
 */
export function markdownLines(text: string): string[] {
  const out: string[] = [];
  blocks(lexer(text), out);
  while (out.length > 0 && out[out.length - 1] === '') out.pop();
  return out.length > 0 ? out : [''];
}

const RULE_WIDTH = 40;

function blocks(tokens: readonly Token[], out: string[]): void {
  for (const token of tokens) block(token, out);
}

function block(token: Token, out: string[]): void {
  switch (token.type) {
    case 'space':
      if (out.length > 0 && out[out.length - 1] !== '') out.push('');
      return;
    case 'heading':
      out.push(...bold(inline((token as Tokens.Heading).tokens)).split('\n'));
      return;
    case 'paragraph':
      out.push(...inline((token as Tokens.Paragraph).tokens).split('\n'));
      return;
    case 'text':
      out.push(...inlineToken(token).split('\n'));
      return;
    case 'code':
      for (const line of (token as Tokens.Code).text.split('\n')) out.push(color('cyan', `  ${esc(line)}`));
      return;
    case 'blockquote': {
      const inner: string[] = [];
      blocks((token as Tokens.Blockquote).tokens, inner);
      for (const line of inner) out.push(`${dim('│')} ${line}`);
      return;
    }
    case 'list':
      list(token as Tokens.List, out);
      return;
    case 'table':
      table(token as Tokens.Table, out);
      return;
    case 'hr':
      out.push(dim('─'.repeat(RULE_WIDTH)));
      return;
    default:
      out.push(...esc(token.raw.replace(/\n+$/, '')).split('\n'));
  }
}

function list(token: Tokens.List, out: string[]): void {
  const start = typeof token.start === 'number' ? token.start : 1;
  token.items.forEach((item, i) => {
    if (token.loose && i > 0) out.push('');
    const marker = `${token.ordered ? `${start + i}.` : '•'}${item.task ? ` [${item.checked ? 'x' : ' '}]` : ''}`;
    const inner: string[] = [];
    blocks(
      item.tokens.filter((t) => t.type !== 'checkbox'),
      inner,
    );
    const pad = ' '.repeat(marker.length + 1);
    inner.forEach((line, j) => out.push(j === 0 ? `${dim(marker)} ${line}` : line === '' ? '' : `${pad}${line}`));
  });
}

function table(token: Tokens.Table, out: string[]): void {
  const rows = [token.header, ...token.rows].map((row) =>
    row.map((cell) => {
      const tagged = inline(cell.tokens);
      return { tagged, width: visibleWidth(tagged) };
    }),
  );
  const widths = token.header.map((_, c) => Math.max(...rows.map((row) => row[c]?.width ?? 0)));
  const line = (row: (typeof rows)[number]) => row.map((cell, c) => `${cell.tagged}${' '.repeat((widths[c] ?? 0) - cell.width)}`).join(dim(' │ '));
  const [header, ...body] = rows;
  if (header) out.push(bold(line(header)), dim(widths.map((w) => '─'.repeat(w)).join('─┼─')));
  for (const row of body) out.push(line(row));
}

function inline(tokens: readonly Token[]): string {
  return tokens.map(inlineToken).join('');
}

function inlineToken(token: Token): string {
  switch (token.type) {
    case 'strong':
      return bold(inline((token as Tokens.Strong).tokens));
    case 'em':
    case 'del':
      return inline((token as Tokens.Em | Tokens.Del).tokens);
    case 'codespan':
      return color('cyan', esc((token as Tokens.Codespan).text));
    case 'br':
      return '\n';
    case 'link': {
      const link = token as Tokens.Link;
      const label = inline(link.tokens);
      return link.text === link.href ? color('blue', label) : `${color('blue', label)} ${dim(`(${esc(link.href)})`)}`;
    }
    case 'image': {
      const image = token as Tokens.Image;
      return dim(`[image: ${esc(image.text)}] (${esc(image.href)})`);
    }
    case 'text': {
      const t = token as Tokens.Text;
      return t.tokens ? inline(t.tokens) : esc(t.text);
    }
    case 'escape':
      return esc((token as Tokens.Escape).text);
    default:
      return esc(token.raw);
  }
}
