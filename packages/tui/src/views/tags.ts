/**
 * blessed tag helpers. Everything that came from the server or the user is escaped before
 * it is put between tags, so a `{red-fg}` in a file name stays text.
 */
export function esc(text: string): string {
  return text.replace(/[{}]/g, (brace) => (brace === '{' ? '{open}' : '{close}'));
}

export function color(name: string, text: string): string {
  return `{${name}-fg}${text}{/${name}-fg}`;
}

export function bold(text: string): string {
  return `{bold}${text}{/bold}`;
}

export function dim(text: string): string {
  return color('gray', text);
}
