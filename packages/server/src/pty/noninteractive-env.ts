/**
 * Settings that keep commands from waiting for a person: no pagers, no credential prompts,
 * no colour-and-cursor terminal tricks. Applied to every command the pty runner starts.
 */
export const PTY_NONINTERACTIVE_ENV: Readonly<Record<string, string>> = {
  CI: '1',
  GIT_TERMINAL_PROMPT: '0',
  PAGER: 'cat',
  GIT_PAGER: 'cat',
  MANPAGER: 'cat',
  DEBIAN_FRONTEND: 'noninteractive',
  TERM: 'dumb',
  NO_COLOR: '1',
};
