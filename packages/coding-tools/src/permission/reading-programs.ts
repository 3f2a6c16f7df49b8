/**
 * The one list of commands that only read, and the sets derived from it. `DEFAULT_READ_ONLY_COMMANDS`
 * is what runs without a question (read-only-commands.ts checks each segment against it);
 * `READING_PROGRAMS` and `READING_GIT_SUBCOMMANDS` are what command-level.ts rates `medium`
 * rather than `dangerous`: the same commands (but `find`, rated by its own options, and
 * `git branch`, a listing only with listing flags) and a few more that only print about the
 * machine or the shell yet are not run unasked by default.
 */

/**
 * Commands that only read (requirements U4): a `run_command` whose every segment is one of these runs
 * without a permission question. An entry is a command name (`ls`) or a command and its
 * subcommand (`git status`). config.json's `readOnlyCommands` replaces this list.
 *
 * Whatever the list says, a segment is read-only only when ALL of these hold, else it asks:
 * - its command word is exactly an entry (no path: `./ls` may be a workspace script);
 * - no command or process substitution, no variable assignment, no `$` anywhere in its words
 *   (a variable could name anything), no redirect into a file;
 * - no argument or input redirect names a place outside the workspace (`/…`, `~…`, `..`):
 *   reading `~/.ssh/id_rsa` is reading, but its text would go to the model;
 * - the command's own writing or command-running options are absent (`find -exec/-delete/-fprint…`,
 *   `sort -o`, `sort --compress-program`, `uniq IN OUT`, `tree -o`, `file -C`, `rg --pre`,
 *   `git --output`/`--ext-diff`, `git branch` with anything but listing flags, `date -s`,
 *   `hostname NAME`).
 */
export const DEFAULT_READ_ONLY_COMMANDS: readonly string[] = [
  'ls',
  'cat',
  'head',
  'tail',
  'wc',
  'pwd',
  'echo',
  'which',
  'file',
  'stat',
  'du',
  'df',
  'tree',
  'grep',
  'egrep',
  'fgrep',
  'rg',
  'find',
  'sort',
  'uniq',
  'cut',
  'diff',
  'cmp',
  'basename',
  'dirname',
  'realpath',
  'readlink',
  'whoami',
  'date',
  'uname',
  'true',
  'false',
  'git status',
  'git log',
  'git diff',
  'git show',
  'git branch',
];

/** Print about the machine or the shell, never write: rated `medium`, still asked about by default. */
const ALSO_READING = ['printf', 'whereis', 'type', 'id', 'hostname', 'test', 'cd', 'printenv'];

/** git subcommands that only read, besides the listed ones: rated `medium`. */
const ALSO_READING_GIT = ['blame', 'rev-parse', 'ls-files', 'describe', 'shortlog'];

export const READING_PROGRAMS: ReadonlySet<string> = new Set([
  ...DEFAULT_READ_ONLY_COMMANDS.filter((entry) => !entry.includes(' ') && entry !== 'find'),
  ...ALSO_READING,
]);

export const READING_GIT_SUBCOMMANDS: ReadonlySet<string> = new Set([
  ...DEFAULT_READ_ONLY_COMMANDS.filter((entry) => entry.startsWith('git ') && entry !== 'git branch').map((entry) => entry.slice(4)),
  ...ALSO_READING_GIT,
]);
