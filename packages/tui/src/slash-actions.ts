import { APPROVAL_MODES, type ApprovalMode, type ShareRole } from '@tandem/shared';
import type { InputCommand } from './input/slash-commands.js';
import { runningCommand } from './state/reducer.js';
import { formatSessionCost } from './views/format-cost.js';
import { shareSummary } from './state/access.js';
import { shareInvite } from './share-invite.js';
import type { SlashHost } from './slash-host.js';
import { runCustomCommand, showHelp } from './slash-custom.js';
import { exportTranscript } from './export/export-command.js';
import { INIT_PROMPT } from './init-prompt.js';

/** What each submitted line does: send it, or run the slash command over the wire. */
export function runSlashCommand(tui: SlashHost, command: InputCommand): void {
  const sessionId = tui.sessionId();
  switch (command.kind) {
    case 'send':
      void tui.run('sending', () => tui.request('session:send', { sessionId, text: command.text }));
      return;
    case 'new':
      void tui.run('/new', async () => {
        const result = await tui.request('session:new', { sessionId });
        if (!result.consolidated)
          tui.notice('warn', `/new: conversation kept: ${result.reason ?? 'not consolidated'} (/clear discards it without saving to memory)`);
      });
      return;
    case 'compact':
      void tui.run('/compact', async () => {
        const result = await tui.request('session:compact', { sessionId }, 120_000);
        if (!result.compacted) tui.notice('info', `/compact: nothing compacted: ${result.reason ?? 'no reason given'}`);
      });
      return;
    case 'quit':
      return tui.quit(0);
    case 'help':
      return showHelp(tui);
    case 'input': {
      const callId = runningCommand(tui.state);
      if (!callId) return tui.notice('warn', '/in: no command is running');
      void tui.run('/in', () => tui.request('command:input', { sessionId, callId, data: `${command.text}\r` }));
      return;
    }
    case 'panel':
      return tui.panels.open(command.panel);
    case 'model':
      if (!command.model) return showModels(tui);
      void tui.run('/model', () => tui.request('session:configure', { sessionId, model: command.model as string }));
      return;
    case 'mode': {
      const current = tui.state.session?.mode ?? 'ask';
      if (tui.state.role !== 'driver') return tui.showFlash('watch-only: a driver changes the approval mode');
      const mode = command.cycle ? nextMode(current) : command.mode;
      if (!mode) return tui.notice('info', `approval mode: ${current} (choose with /mode ${APPROVAL_MODES.join('|')} or Shift-Tab)`);
      void tui.run('/mode', () => tui.request('session:configure', { sessionId, mode }));
      return;
    }
    case 'title':
      void tui.run('/title', () => tui.request('session:configure', { sessionId, title: command.title }));
      return;
    case 'search': {
      const current = tui.state.session?.searchOnly ?? false;
      if (tui.state.role !== 'driver') return tui.showFlash('watch-only: a driver turns search-only on or off');
      const on = command.on ?? !current;
      void tui.run('/search', () => tui.request('session:configure', { sessionId, searchOnly: on }));
      return;
    }
    case 'clear':
      return tui.ask('Clear the conversation for everyone attached? It is discarded without saving to memory. y / n', () => {
        void tui.run('/clear', () => tui.request('session:clear', { sessionId }));
      });
    case 'workers':
      return tui.toggleHidden();
    case 'cost':
      void tui.run('/cost', async () => {
        for (const line of formatSessionCost(await tui.request('session:usage', { sessionId }))) tui.notice('info', line);
      });
      return;
    case 'reload':
      void tui.run('/reload', async () => {
        await tui.request('session:reload', { sessionId });
        tui.notice('info', '/reload: the next turn reads AGENTS.md and memory again (its prompt is written to the cache anew once)');
      });
      return;
    case 'share':
      return createShare(tui, command.role, command.name);
    case 'undo':
      if (tui.state.role !== 'driver') return tui.showFlash('watch-only: a driver takes turns back');
      void tui.run('/undo', () => undoTurns(tui, command.turns));
      return;
    case 'grant':
      if (tui.state.role !== 'driver') return tui.showFlash('watch-only: a driver grants the sandbox');
      return tui.ask(
        `Let the agent ${command.write ? 'write' : 'reach'} ${command.path} for the rest of this session${command.write ? ' (a protected location: git hooks and settings there can run code later)' : ''}? y / n`,
        () => {
          void tui.run('/grant', async () => {
            const granted = await tui.request('sandbox:grant', { sessionId, path: command.path, ...(command.write ? { write: true } : {}) });
            tui.notice('info', `granted ${granted.path}${command.write ? ' (write)' : ''}`);
          });
        },
      );
    case 'bad':
      return tui.notice('warn', command.message);
    case 'export':
      void exportTranscript(tui, command.file);
      return;
    case 'init':
      void tui.run('/init', () => tui.request('session:send', { sessionId, text: INIT_PROMPT }));
      return;
    case 'unknown':
      return runCustomCommand(tui, command.name, command.rest ?? '');
  }
}

/** Shift-Tab: ask → auto-edit → read-only → ask. `full-auto` is chosen by name only (`/mode full-auto`); Shift-Tab leaves it for ask. */
export function nextMode(mode: ApprovalMode): ApprovalMode {
  const cycle: readonly ApprovalMode[] = APPROVAL_MODES.filter((candidate) => candidate !== 'full-auto');
  const index = cycle.indexOf(mode);
  return cycle[(index + 1) % cycle.length] ?? 'ask';
}

function showModels(tui: SlashHost): void {
  const current = tui.state.session?.model ?? tui.state.model ?? 'unknown';
  void tui.run('/model', async () => {
    const { models } = await tui.request('models:list', {});
    const offered = models.map((model) => model.id);
    tui.notice(
      'info',
      `model: ${current} · /model provider/model switches it for the next turn${offered.length > 0 ? ` · offered: ${offered.join(', ')}` : ''}`,
    );
  });
}

/** session:undo, and one line saying what came back and what was left alone. */
export async function undoTurns(tui: SlashHost, turns: number): Promise<void> {
  const result = await tui.request('session:undo', { sessionId: tui.sessionId(), turns });
  const restored =
    result.files.length > 0
      ? `${result.files.length} file(s) restored: ${result.files.slice(0, 8).join(', ')}${result.files.length > 8 ? ', …' : ''}`
      : 'no files to restore';
  const conflicts = result.conflicts.length > 0 ? `; left alone (changed since): ${result.conflicts.map((c) => c.path).join(', ')}` : '';
  tui.notice(result.conflicts.length > 0 ? 'warn' : 'info', `undo: ${turns} turn${turns === 1 ? '' : 's'} taken back, ${restored}${conflicts}`);
}

/**
 * /share ROLE NAME: a share of this session for one person. The link and the attach line go to
 * the transcript (each on a line of its own) and the link to the terminal's clipboard; only the
 * control token may invite, anyone else is told why instead of getting a bare `forbidden`.
 */
function createShare(tui: SlashHost, role: ShareRole, name: string): void {
  const { share, tokenKind, url } = tui.state;
  if (share) return tui.notice('warn', `/share: only the host (the server's control token) lets people in; you came in with a share (${shareSummary(share)})`);
  if (tokenKind === 'view') return tui.notice('warn', "/share: only the host (the server's control token) lets people in; this client uses the view token");
  const sessionId = tui.sessionId();
  void tui.run('/share', async () => {
    const created = await tui.request('share:create', { sessionId, name, role });
    const invite = shareInvite(url, created.share, created.token);
    tui.notice('info', invite.text, invite.copy);
    tui.copyToClipboard(invite.link);
    tui.showFlash(`the web link for ${created.share.name} was sent to the terminal's clipboard (OSC 52); both lines are in the transcript`);
  });
}
