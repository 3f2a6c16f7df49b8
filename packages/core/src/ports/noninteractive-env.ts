/**
 * Environment for every command the agent runs: nothing may stop to wait for a person at a
 * prompt, a pager or an editor, because nobody is typing into the pty by default.
 */
export const NONINTERACTIVE_ENV: Readonly<Record<string, string>> = Object.freeze({
  CI: '1',
  TERM: 'xterm-256color',
  // git
  GIT_TERMINAL_PROMPT: '0',
  GIT_PAGER: 'cat',
  GIT_EDITOR: 'true',
  // pagers and editors
  PAGER: 'cat',
  MANPAGER: 'cat',
  SYSTEMD_PAGER: '',
  LESS: '-FRX',
  EDITOR: 'true',
  VISUAL: 'true',
  // package managers
  DEBIAN_FRONTEND: 'noninteractive',
  npm_config_yes: 'true',
  npm_config_fund: 'false',
  npm_config_audit: 'false',
  npm_config_update_notifier: 'false',
  YARN_ENABLE_INTERACTIVE: '0',
  PNPM_DISABLE_SELF_UPDATE_CHECK: '1',
  PIP_NO_INPUT: '1',
  PIP_DISABLE_PIP_VERSION_CHECK: '1',
  PYTHONUNBUFFERED: '1',
  HOMEBREW_NO_AUTO_UPDATE: '1',
  CONDA_ALWAYS_YES: 'true',
  // tools that check for a TTY or colours
  NO_UPDATE_NOTIFIER: '1',
  DOTNET_CLI_TELEMETRY_OPTOUT: '1',
  TF_INPUT: '0',
});
