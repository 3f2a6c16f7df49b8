import { fstatSync } from 'node:fs';
import { MAX_MESSAGE_CHARS } from '@tandem/shared';

/** The prompt cannot be used (none, too long, not text): a usage error, exit status 2. */
export class PromptError extends Error {
  override readonly name = 'PromptError';
}

export interface PromptSources {
  /** PROMPT words from the command line (or `-p PROMPT`). */
  words: readonly string[];
  stdin: NodeJS.ReadableStream & { isTTY?: boolean; fd?: number };
  /** How long to wait for the first byte of a pipe that may never be written when PROMPT is given (default 3 s). */
  idleStdinMs?: number;
  /** Told when stdin gave nothing in time and the run goes on with PROMPT alone. */
  onIdleStdin?(): void;
  /** What to say when there is no prompt at all (default: how to give one to `tandem run`). */
  noPrompt?: string | undefined;
}

/** Bytes read from stdin at most: beyond this the prompt is over the limit anyway. */
const MAX_STDIN_BYTES = MAX_MESSAGE_CHARS * 4 + 4;

/**
 * The prompt of a headless run: PROMPT, and stdin's text when stdin is not a terminal (the
 * whole prompt, or appended to PROMPT after a blank line). Stdin must be UTF-8 text without NUL
 * bytes. When PROMPT is given and stdin is a pipe nobody writes to (a script's open but unused
 * stdin), the run does not wait for it forever: with no byte within `idleStdinMs` it goes on
 * with PROMPT alone. Throws `PromptError` saying what to do.
 */
export async function readPrompt(sources: PromptSources): Promise<string> {
  const given = sources.words.join(' ').trim();
  let piped = '';
  if (!sources.stdin.isTTY && stdinIsReadable(sources.stdin)) {
    const waitFirstByteMs = given ? (sources.idleStdinMs ?? 3000) : undefined;
    const bytes = await readAll(sources.stdin, waitFirstByteMs);
    if (bytes === 'idle') sources.onIdleStdin?.();
    else piped = decodeText(bytes).trim();
  }
  const prompt = given && piped ? `${given}\n\n${piped}` : given || piped;
  if (!prompt) {
    throw new PromptError(
      sources.noPrompt ?? 'no prompt: give it as arguments (tandem run "fix the failing test") or on stdin (git diff | tandem run "review this")',
    );
  }
  if (prompt.length > MAX_MESSAGE_CHARS) {
    throw new PromptError(
      `the prompt has ${prompt.length} characters, more than the ${MAX_MESSAGE_CHARS} one message may hold; send less (a file's path instead of its content lets the agent read it)`,
    );
  }
  return prompt;
}

/** A closed stdin (`<&-`) has no descriptor to read. */
function stdinIsReadable(stdin: { fd?: number }): boolean {
  try {
    fstatSync(stdin.fd ?? 0);
    return true;
  } catch {
    return false;
  }
}

function readAll(stream: NodeJS.ReadableStream, waitFirstByteMs: number | undefined): Promise<Buffer | 'idle'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const timer = waitFirstByteMs === undefined ? undefined : setTimeout(() => finish('idle'), waitFirstByteMs);
    const onData = (chunk: Buffer | string) => {
      if (timer) clearTimeout(timer);
      const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      size += buffer.length;
      if (size > MAX_STDIN_BYTES) {
        return fail(new PromptError(`stdin holds more than ${MAX_STDIN_BYTES} bytes, over the ${MAX_MESSAGE_CHARS}-character limit of one message; send less`));
      }
      chunks.push(buffer);
    };
    const onEnd = () => finish(Buffer.concat(chunks));
    const onError = (err: Error) => fail(new PromptError(`could not read stdin: ${err.message}`));
    const stop = () => {
      if (timer) clearTimeout(timer);
      stream.off('data', onData);
      stream.off('end', onEnd);
      stream.off('error', onError);
      stream.pause();
    };
    const finish = (value: Buffer | 'idle') => {
      stop();
      resolve(value);
    };
    const fail = (err: Error) => {
      stop();
      reject(err);
    };
    stream.on('data', onData);
    stream.once('end', onEnd);
    stream.once('error', onError);
    stream.resume();
  });
}

function decodeText(bytes: Buffer): string {
  const nul = bytes.indexOf(0);
  if (nul >= 0) throw new PromptError(`stdin is not text (a NUL byte at offset ${nul}); pipe text, or name the file in the prompt so the agent reads it`);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new PromptError('stdin is not UTF-8 text; pipe text, or name the file in the prompt so the agent reads it');
  }
}
