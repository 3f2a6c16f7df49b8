/**
 * The OSC 52 sequence that asks the terminal to put `text` on the system clipboard (`c`).
 * Terminals that allow it (most current ones; tmux with `set-clipboard on`) copy it; others
 * ignore the sequence, so callers say "sent to the clipboard", never "copied".
 */
export function osc52(text: string): string {
  return `\u001b]52;c;${Buffer.from(text, 'utf8').toString('base64')}\u0007`;
}
