import type { Command, Option } from 'commander';

/**
 * The options every command that talks to a server takes, whatever it was written with: the
 * server (`--url`, or `--port` for one on this machine), the token, the certificate to trust and
 * the data directory. Applied once the program is built, to every command that names a server
 * (has `--url`), so a command added later gets them too and `tandem attach --port N` works as
 * `tandem --port N` does.
 */
export const CONNECTION_OPTIONS: ReadonlyArray<{ flags: string; description: string; port?: boolean }> = [
  { flags: '--url <url>', description: 'server URL (default: the local server from <data-dir>/server.json)' },
  {
    flags: '--port <port>',
    description: "the server on this machine's port (as `tandem --port N` started it); default: the local server from <data-dir>/server.json",
    port: true,
  },
  { flags: '--token <token>', description: 'a token of that server: control, view, or a share token (default: from the data directory)' },
  { flags: '--ca <file>', description: 'a certificate (PEM) to trust for an https:// server, e.g. its self-signed one' },
  { flags: '--data-dir <dir>', description: 'the local data directory (default $TANDEM_DATA_DIR or ~/.tandem)' },
];

export function applyConnectionOptions(program: Command, parsePort: (value: string) => number): void {
  for (const command of allCommands(program)) {
    if (command === program || !has(command.options, '--url')) continue;
    for (const option of CONNECTION_OPTIONS) {
      const long = option.flags.split(' ')[0] as string;
      if (has(command.options, long)) continue;
      if (option.port) command.option(option.flags, option.description, parsePort);
      else command.option(option.flags, option.description);
    }
  }
}

function has(options: readonly Option[], long: string): boolean {
  return options.some((option) => option.long === long);
}

function allCommands(command: Command): Command[] {
  return [command, ...command.commands.flatMap(allCommands)];
}
