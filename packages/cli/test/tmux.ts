import { execFileSync } from 'node:child_process';

/**
 * A tmux server of our own (its own socket), so tests never touch anyone else's sessions and
 * `kill()` ends only what we started. Panes are read with capture-pane and polled with a deadline.
 */
export class Tmux {
  private readonly socket = `tandem-test-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;

  run(args: string[]): string {
    try {
      return execFileSync('tmux', ['-L', this.socket, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new Error('the TUI tests need tmux on PATH (e.g. apt-get install tmux)');
      throw err;
    }
  }

  /** Starts `command` (a shell line) in a detached session, 120x40 unless `size` says otherwise. */
  start(name: string, command: string, env: Record<string, string> = {}, size: { columns: number; rows: number } = { columns: 120, rows: 40 }): void {
    const envArgs = Object.entries({ NCURSES_NO_UTF8_ACS: '1', TERM: 'xterm-256color', ...env }).flatMap(([key, value]) => ['-e', `${key}=${value}`]);
    this.run(['new-session', '-d', '-x', String(size.columns), '-y', String(size.rows), '-s', name, ...envArgs, command]);
  }

  /**
   * Answers the permission dialog the way a person does: waits until the dialog offers focus
   * (its half second has passed; the screen says so), presses F2, waits until the dialog says
   * it has the keys, then presses `key`. Every step waits on the screen, never on time.
   */
  async answerPermission(name: string, key: string): Promise<void> {
    await this.waitFor(name, (s) => s.includes('Permission needed') && /F2 or Enter on (the )?empty line: answer here/.test(s), 240_000);
    this.type(name, '', 'F2');
    await this.waitFor(name, (s) => /▶ (this dialog has the keys|keys answer here)/.test(s));
    this.type(name, key);
  }

  capture(name: string): string {
    try {
      return this.run(['capture-pane', '-p', '-t', name]);
    } catch {
      return '';
    }
  }

  /** The pane with its colours and attributes as escape sequences (`capture-pane -e`). */
  captureStyled(name: string): string {
    try {
      return this.run(['capture-pane', '-e', '-p', '-t', name]);
    } catch {
      return '';
    }
  }

  /**
   * Pastes `text` the way a terminal does: tmux's paste buffer with `-p`, which wraps it in
   * bracketed-paste markers when the program asked for them (and sends newlines as CR).
   */
  paste(name: string, text: string): void {
    const buffer = `paste-${Math.random().toString(36).slice(2, 8)}`;
    this.run(['set-buffer', '-b', buffer, '--', text]);
    this.run(['paste-buffer', '-p', '-d', '-b', buffer, '-t', name]);
  }

  /** Types text literally (no key names), then optionally presses keys like Enter or C-c. */
  type(name: string, text: string, ...keys: string[]): void {
    if (text) this.run(['send-keys', '-t', name, '-l', text]);
    if (keys.length > 0) this.run(['send-keys', '-t', name, ...keys]);
  }

  /**
   * Polls the pane until `test` passes; fails with the last screen when `timeoutMs` passes.
   * The bound is generous on purpose (a busy 2-core machine can take a minute for one step):
   * a passing run never waits for it, it only says when to give up.
   */
  async waitFor(name: string, test: string | RegExp | ((screen: string) => boolean), timeoutMs = 240_000): Promise<string> {
    const check = typeof test === 'function' ? test : (screen: string) => (typeof test === 'string' ? screen.includes(test) : test.test(screen));
    const deadline = Date.now() + timeoutMs;
    let screen = '';
    while (Date.now() < deadline) {
      screen = this.capture(name);
      if (check(screen)) return screen;
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
    throw new Error(`timed out after ${timeoutMs} ms waiting for ${String(test)} in tmux pane ${name}; last screen:\n${screen}`);
  }

  kill(): void {
    try {
      this.run(['kill-server']);
    } catch {
      // no server left
    }
  }
}
