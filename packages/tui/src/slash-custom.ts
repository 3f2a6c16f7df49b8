import type { CustomCommand } from '@tandem/shared';
import { expandCustomCommand, findCustomCommand } from './input/custom-command.js';
import { BUILTIN_COMMANDS, SLASH_HELP } from './input/slash-commands.js';
import type { SlashHost } from './slash-host.js';

/**
 * Custom slash commands in the TUI: `/NAME args` sends the command's prompt with the arguments
 * put in; `/help` lists them after the built-ins. The list comes from the server (the files live
 * beside the session's workspace and in the data directory) and is read again when a name is
 * not known yet, so a file added a moment ago works at once.
 */
export function runCustomCommand(tui: SlashHost, name: string, rest: string): void {
  void tui.run(`/${name}`, async () => {
    let found = findCustomCommand(tui.customCommands, name);
    if (!found) {
      await tui.loadCommands();
      found = findCustomCommand(tui.customCommands, name);
    }
    if (!found)
      return tui.notice('warn', `unknown command /${name}; /help lists them (custom ones live in .tandem/commands, .claude/commands or <data-dir>/commands)`);
    const text = expandCustomCommand(found.body, rest);
    await tui.request('session:send', { sessionId: tui.sessionId(), text });
  });
}

/** `/help`: the built-ins, then the custom commands (and which files could not be used, and why). */
export function showHelp(tui: SlashHost): void {
  tui.notice('info', SLASH_HELP);
  void tui.run('/help', async () => {
    await tui.loadCommands();
    const lines = customHelp(tui.customCommands);
    if (lines) tui.notice('info', lines);
  });
}

/** The custom commands as one help line, or '' when there are none. */
export function customHelp(commands: readonly CustomCommand[]): string {
  const builtin = new Set(BUILTIN_COMMANDS);
  const usable = commands.filter((command) => command.status === 'ok' && !builtin.has(command.name.toLowerCase()));
  const notes = commands
    .filter((command) => command.status !== 'ok' || builtin.has(command.name.toLowerCase()))
    .map((command) =>
      command.status === 'ok'
        ? `/${command.name} (${command.file}) is shadowed by the built-in /${command.name}`
        : `${command.file}: ${command.reason ?? command.status}`,
    );
  if (usable.length === 0 && notes.length === 0) return '';
  const listed = usable.map((command) => {
    const hint = command.argumentHint ? ` ${command.argumentHint}` : '';
    return `/${command.name}${hint}${command.description ? ` (${command.description})` : ''} [${command.source}]`;
  });
  return [`custom commands: ${listed.length > 0 ? listed.join(' · ') : 'none usable'}`, ...(notes.length > 0 ? [`not used: ${notes.join(' · ')}`] : [])].join(
    ' · ',
  );
}

/** What Tab completes after `/`: the built-ins and the usable custom commands. */
export function commandNames(commands: readonly CustomCommand[]): string[] {
  return [...BUILTIN_COMMANDS, ...commands.filter((command) => command.status === 'ok').map((command) => command.name)];
}
