/**
 * Whether to colour what goes to `stream`: only on a terminal, never with NO_COLOR set (any
 * value, https://no-color.org) or TERM=dumb; FORCE_COLOR turns it on anyway.
 */
export function colorEnabled(stream: NodeJS.WritableStream, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0') return true;
  if (env.TERM === 'dumb') return false;
  return Boolean((stream as NodeJS.WriteStream).isTTY);
}

export interface Paint {
  bold(text: string): string;
  dim(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
}

const plain: Paint = { bold: (t) => t, dim: (t) => t, green: (t) => t, yellow: (t) => t };
const sgr = (open: number, close: number) => (text: string) => `\u001b[${open}m${text}\u001b[${close}m`;
const ansi: Paint = { bold: sgr(1, 22), dim: sgr(2, 22), green: sgr(32, 39), yellow: sgr(33, 39) };

export function paintFor(stream: NodeJS.WritableStream, env: NodeJS.ProcessEnv = process.env): Paint {
  return colorEnabled(stream, env) ? ansi : plain;
}
