import { runHeadlessTurn } from '../headless/headless-turn.js';
import { EXIT, failureSentence, type RunResult } from '../headless/run-result.js';
import { connectToServer } from '../headless/server-connection.js';
import { UnknownSessionError } from '../headless/session-target.js';
import { workspaceDir } from '../workspace.js';
import { PromptError, readPrompt } from './prompt-input.js';
import { checkRunFlags, type RunFlags } from './run-flags.js';
import { RunProgress } from './run-progress.js';

export interface RunOptions extends RunFlags {
  /** PROMPT words. */
  prompt: readonly string[];
  dataDir: string;
  /** Port of a local server started in the background. */
  port: number;
  /** The name other attached clients see (` (run)` is added). */
  name: string;
  /** What to say when there is no prompt (bare `tandem` without a terminal says why it runs headless). */
  noPrompt?: string | undefined;
}

export interface RunIo {
  stdin: NodeJS.ReadableStream & { isTTY?: boolean; fd?: number };
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  /** Where SIGINT / SIGTERM come from (the process). */
  signals: Pick<NodeJS.Process, 'on' | 'off'>;
  /** Leaves at once (a second Ctrl-C). */
  exit(code: number): void;
}

const processIo: RunIo = {
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  signals: process,
  exit: (code) => process.exit(code),
};

/**
 * `tandem run` / `tandem -p`: one turn without a terminal UI. The answer (or the JSON) goes to
 * stdout and nothing else does; progress goes to stderr. Resolves with the exit status:
 * 0 answered, 1 an agent or model error, a limit or a lost server, 2 bad usage, 3 a permission
 * refused or not answered in time, 130 interrupted.
 */
export async function runHeadless(options: RunOptions, io: RunIo = processIo): Promise<number> {
  const fail = (code: number, message: string) => {
    io.stderr.write(`tandem: ${message}\n`);
    return code;
  };
  let choice: ReturnType<typeof checkRunFlags>;
  let cwd: string;
  let prompt: string;
  try {
    choice = checkRunFlags(options);
    cwd = workspaceDir(options.cwd);
    prompt = await readPrompt({
      words: options.prompt,
      stdin: io.stdin,
      noPrompt: options.noPrompt,
      onIdleStdin: () => {
        if (!options.quiet) io.stderr.write('tandem: stdin gave nothing within 3 s; running with the PROMPT argument alone\n');
      },
    });
  } catch (err) {
    return fail(EXIT.usage, (err as Error).message);
  }

  const name = `${options.name.slice(0, 58)} (run)`;
  let connection: Awaited<ReturnType<typeof connectToServer>>;
  try {
    connection = await connectToServer({
      url: options.url,
      token: options.token,
      ca: options.ca,
      dataDir: options.dataDir,
      port: options.port,
      name,
      onStarted: (url, pid) => {
        if (!options.quiet) io.stderr.write(`tandem: started a server in the background at ${url} (pid ${pid}); \`tandem stop\` stops it\n`);
      },
    });
  } catch (err) {
    return fail(EXIT.failed, (err as Error).message);
  }
  const { client } = connection;
  const stop = new AbortController();
  let interrupts = 0;
  const onSignal = () => {
    interrupts += 1;
    if (interrupts > 1) return io.exit(EXIT.interrupted);
    if (!options.quiet) io.stderr.write('tandem: cancelling the turn (Ctrl-C again to leave at once)\n');
    stop.abort();
  };
  let progress: RunProgress | undefined;
  try {
    io.signals.on('SIGINT', onSignal);
    io.signals.on('SIGTERM', onSignal);
    let result: RunResult;
    try {
      result = await runHeadlessTurn({
        connection,
        by: name,
        target: { sessionId: options.session, continueLast: options.continue, cwd, model: options.model },
        prompt,
        mode: choice.mode,
        maxIterations: choice.maxIterations,
        signal: stop.signal,
        onSession: (session, created) => {
          progress = new RunProgress({ write: (line) => io.stderr.write(`${line}\n`), quiet: Boolean(options.quiet), sessionId: session.id });
          if (!options.quiet) {
            io.stderr.write(
              `tandem: session ${session.id.slice(0, 8)}${created ? ' (new)' : ''} in ${session.cwd} · ${session.model} · ${session.mode ?? 'ask'}\n`,
            );
          }
        },
        onEvent: (event) => {
          progress?.observe(event);
          if (choice.format === 'stream-json') io.stdout.write(`${JSON.stringify(event)}\n`);
        },
      });
    } catch (err) {
      if (err instanceof UnknownSessionError) return fail(EXIT.usage, err.message);
      return fail(EXIT.failed, (err as Error).message);
    }
    if (choice.format === 'text') {
      if (result.result) io.stdout.write(result.result.endsWith('\n') ? result.result : `${result.result}\n`);
    } else {
      io.stdout.write(`${JSON.stringify(result)}\n`);
    }
    const why = failureSentence(result);
    if (why) io.stderr.write(`tandem: ${why}\n`);
    return result.exitStatus;
  } finally {
    io.signals.off('SIGINT', onSignal);
    io.signals.off('SIGTERM', onSignal);
    client.close();
  }
}
